package analyze

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// inspect calls f for n and, while f returns true, for every node under
// it, depth first in source order: what syntax.Walk visits, except
// comments and the nil that Walk hands f after each node's children
// (none of the callers here looks at either; directives, which read
// comments, use syntax.Walk).
//
// Why not syntax.Walk: it defers a call for a statement's trailing
// comment, so every one of its calls pays for a deferred return (the
// runtime unwinds the frame to find the defers), about a third of a walk.
// The analysis walks parts of the tree again and again (each kill's
// arguments, a zsh source's background statements, a script's
// assignments), where that added 2-3 % to an analysis.
func inspect(n syntax.Node, f func(syntax.Node) bool) {
	if !f(n) {
		return
	}
	switch n := n.(type) {
	case *syntax.File:
		inspectStmts(n.Stmts, f)
	case *syntax.Stmt:
		if n.Cmd != nil {
			inspect(n.Cmd, f)
		}
		for _, r := range n.Redirs {
			inspect(r, f)
		}
	case *syntax.Word:
		inspectParts(n.Parts, f)
	case *syntax.Lit, *syntax.SglQuoted, *syntax.Comment:
	case *syntax.CallExpr:
		for _, a := range n.Assigns {
			inspect(a, f)
		}
		inspectWords(n.Args, f)
	case *syntax.DblQuoted:
		inspectParts(n.Parts, f)
	case *syntax.ParamExp:
		inspectParam(n, f)
	case *syntax.CmdSubst:
		inspectStmts(n.Stmts, f)
	case *syntax.Assign:
		if n.Name != nil {
			inspect(n.Name, f)
		}
		if n.Value != nil {
			inspect(n.Value, f)
		}
		if n.Index != nil {
			inspect(n.Index, f)
		}
		if n.Array != nil {
			inspect(n.Array, f)
		}
	case *syntax.Redirect:
		if n.N != nil {
			inspect(n.N, f)
		}
		inspect(n.Word, f)
		if n.Hdoc != nil {
			inspect(n.Hdoc, f)
		}
	case *syntax.BinaryCmd:
		inspect(n.X, f)
		inspect(n.Y, f)
	case *syntax.Subshell:
		inspectStmts(n.Stmts, f)
	case *syntax.Block:
		inspectStmts(n.Stmts, f)
	case *syntax.IfClause:
		inspectStmts(n.Cond, f)
		inspectStmts(n.Then, f)
		if n.Else != nil {
			inspect(n.Else, f)
		}
	case *syntax.WhileClause:
		inspectStmts(n.Cond, f)
		inspectStmts(n.Do, f)
	case *syntax.ForClause:
		inspect(n.Loop, f)
		inspectStmts(n.Do, f)
	case *syntax.WordIter:
		inspect(n.Name, f)
		inspectWords(n.Items, f)
	case *syntax.CStyleLoop:
		inspectArithm(f, n.Init, n.Cond, n.Post)
	case *syntax.FuncDecl:
		if n.Name != nil {
			inspect(n.Name, f)
		}
		for _, name := range n.Names {
			inspect(name, f)
		}
		inspect(n.Body, f)
	case *syntax.ArithmExp:
		inspect(n.X, f)
	case *syntax.ArithmCmd:
		inspect(n.X, f)
	case *syntax.BinaryArithm:
		inspect(n.X, f)
		inspect(n.Y, f)
	case *syntax.BinaryTest:
		inspect(n.X, f)
		inspect(n.Y, f)
	case *syntax.UnaryArithm:
		inspect(n.X, f)
	case *syntax.UnaryTest:
		inspect(n.X, f)
	case *syntax.ParenArithm:
		inspect(n.X, f)
	case *syntax.FlagsArithm:
		inspect(n.Flags, f)
		if n.X != nil {
			inspect(n.X, f)
		}
	case *syntax.ParenTest:
		inspect(n.X, f)
	case *syntax.CaseClause:
		inspect(n.Word, f)
		for _, it := range n.Items {
			inspect(it, f)
		}
	case *syntax.CaseItem:
		inspectWords(n.Patterns, f)
		inspectStmts(n.Stmts, f)
	case *syntax.TestClause:
		inspect(n.X, f)
	case *syntax.DeclClause:
		for _, a := range n.Args {
			inspect(a, f)
		}
	case *syntax.ArrayExpr:
		for _, e := range n.Elems {
			inspect(e, f)
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			inspect(n.Index, f)
		}
		if n.Value != nil {
			inspect(n.Value, f)
		}
	case *syntax.ExtGlob:
		inspect(n.Pattern, f)
	case *syntax.ProcSubst:
		inspectStmts(n.Stmts, f)
	case *syntax.TimeClause:
		if n.Stmt != nil {
			inspect(n.Stmt, f)
		}
	case *syntax.CoprocClause:
		if n.Name != nil {
			inspect(n.Name, f)
		}
		inspect(n.Stmt, f)
	case *syntax.LetClause:
		inspectArithm(f, n.Exprs...)
	case *syntax.TestDecl:
		inspect(n.Description, f)
		inspect(n.Body, f)
	default:
		// As syntax.Walk does; TestInspect checks that the two visit the
		// same nodes of every corpus command. (Handing an unknown kind
		// to syntax.Walk would make f escape, and with it every caller's
		// closure.)
		panic(fmt.Sprintf("inspect: unexpected node type %T", n))
	}
}

// holds reports whether some node of the tree n satisfies match; the
// walk stops at the first that does.
func holds(n syntax.Node, match func(syntax.Node) bool) bool {
	found := false
	inspect(n, func(n syntax.Node) bool {
		// (inspect still visits the siblings of the node found)
		found = found || match(n)
		return !found
	})
	return found
}

// isCallOf reports whether n is a simple command whose first word is
// literally name (`return`, `trap`).
func isCallOf(n syntax.Node, name string) bool {
	ce, ok := n.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && wordLit(ce.Args[0]) == name
}

func inspectStmts(list []*syntax.Stmt, f func(syntax.Node) bool) {
	for _, s := range list {
		inspect(s, f)
	}
}

func inspectWords(list []*syntax.Word, f func(syntax.Node) bool) {
	for _, w := range list {
		inspect(w, f)
	}
}

func inspectParts(list []syntax.WordPart, f func(syntax.Node) bool) {
	for _, p := range list {
		inspect(p, f)
	}
}

// inspectArithm inspects the expressions that are there.
func inspectArithm(f func(syntax.Node) bool, xs ...syntax.ArithmExpr) {
	for _, x := range xs {
		if x != nil {
			inspect(x, f)
		}
	}
}

func inspectParam(n *syntax.ParamExp, f func(syntax.Node) bool) {
	if n.Flags != nil {
		inspect(n.Flags, f)
	}
	if n.Param != nil {
		inspect(n.Param, f)
	}
	if n.NestedParam != nil {
		inspect(n.NestedParam, f)
	}
	if n.Index != nil {
		inspect(n.Index, f)
	}
	if s := n.Slice; s != nil {
		inspectArithm(f, s.Offset, s.Length)
	}
	if r := n.Repl; r != nil {
		if r.Orig != nil {
			inspect(r.Orig, f)
		}
		if r.With != nil {
			inspect(r.With, f)
		}
	}
	if n.Exp != nil && n.Exp.Word != nil {
		inspect(n.Exp.Word, f)
	}
}
