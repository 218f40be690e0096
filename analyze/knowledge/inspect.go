package knowledge

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// Inspect calls f for n and, while f returns true, for every node under
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
func Inspect(n syntax.Node, f func(syntax.Node) bool) {
	if !f(n) {
		return
	}
	switch n := n.(type) {
	case *syntax.File:
		inspectStmts(n.Stmts, f)
	case *syntax.Stmt:
		if n.Cmd != nil {
			Inspect(n.Cmd, f)
		}
		for _, r := range n.Redirs {
			Inspect(r, f)
		}
	case *syntax.Word:
		inspectParts(n.Parts, f)
	case *syntax.Lit, *syntax.SglQuoted, *syntax.Comment:
	case *syntax.CallExpr:
		for _, a := range n.Assigns {
			Inspect(a, f)
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
			Inspect(n.Name, f)
		}
		if n.Value != nil {
			Inspect(n.Value, f)
		}
		if n.Index != nil {
			Inspect(n.Index, f)
		}
		if n.Array != nil {
			Inspect(n.Array, f)
		}
	case *syntax.Redirect:
		if n.N != nil {
			Inspect(n.N, f)
		}
		Inspect(n.Word, f)
		if n.Hdoc != nil {
			Inspect(n.Hdoc, f)
		}
	case *syntax.BinaryCmd:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *syntax.Subshell:
		inspectStmts(n.Stmts, f)
	case *syntax.Block:
		inspectStmts(n.Stmts, f)
	case *syntax.IfClause:
		inspectStmts(n.Cond, f)
		inspectStmts(n.Then, f)
		if n.Else != nil {
			Inspect(n.Else, f)
		}
	case *syntax.WhileClause:
		inspectStmts(n.Cond, f)
		inspectStmts(n.Do, f)
	case *syntax.ForClause:
		Inspect(n.Loop, f)
		inspectStmts(n.Do, f)
	case *syntax.WordIter:
		Inspect(n.Name, f)
		inspectWords(n.Items, f)
	case *syntax.CStyleLoop:
		inspectArithm(f, n.Init, n.Cond, n.Post)
	case *syntax.FuncDecl:
		if n.Name != nil {
			Inspect(n.Name, f)
		}
		for _, name := range n.Names {
			Inspect(name, f)
		}
		Inspect(n.Body, f)
	case *syntax.ArithmExp:
		Inspect(n.X, f)
	case *syntax.ArithmCmd:
		Inspect(n.X, f)
	case *syntax.BinaryArithm:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *syntax.BinaryTest:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *syntax.UnaryArithm:
		Inspect(n.X, f)
	case *syntax.UnaryTest:
		Inspect(n.X, f)
	case *syntax.ParenArithm:
		Inspect(n.X, f)
	case *syntax.FlagsArithm:
		Inspect(n.Flags, f)
		if n.X != nil {
			Inspect(n.X, f)
		}
	case *syntax.ParenTest:
		Inspect(n.X, f)
	case *syntax.CaseClause:
		Inspect(n.Word, f)
		for _, it := range n.Items {
			Inspect(it, f)
		}
	case *syntax.CaseItem:
		inspectWords(n.Patterns, f)
		inspectStmts(n.Stmts, f)
	case *syntax.TestClause:
		Inspect(n.X, f)
	case *syntax.DeclClause:
		for _, a := range n.Args {
			Inspect(a, f)
		}
	case *syntax.ArrayExpr:
		for _, e := range n.Elems {
			Inspect(e, f)
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			Inspect(n.Index, f)
		}
		if n.Value != nil {
			Inspect(n.Value, f)
		}
	case *syntax.ExtGlob:
		Inspect(n.Pattern, f)
	case *syntax.ProcSubst:
		inspectStmts(n.Stmts, f)
	case *syntax.TimeClause:
		if n.Stmt != nil {
			Inspect(n.Stmt, f)
		}
	case *syntax.CoprocClause:
		if n.Name != nil {
			Inspect(n.Name, f)
		}
		Inspect(n.Stmt, f)
	case *syntax.LetClause:
		inspectArithm(f, n.Exprs...)
	case *syntax.TestDecl:
		Inspect(n.Description, f)
		Inspect(n.Body, f)
	default:
		// As syntax.Walk does; TestInspect checks that the two visit the
		// same nodes of every corpus command. (Handing an unknown kind
		// to syntax.Walk would make f escape, and with it every caller's
		// closure.)
		panic(fmt.Sprintf("inspect: unexpected node type %T", n))
	}
}

// Holds reports whether some node of the tree n satisfies match; the
// walk stops at the first that does.
func Holds(n syntax.Node, match func(syntax.Node) bool) bool {
	found := false
	Inspect(n, func(n syntax.Node) bool {
		// (inspect still visits the siblings of the node found)
		found = found || match(n)
		return !found
	})
	return found
}

// IsCallOf reports whether n is a simple command whose first word is
// literally name (`return`, `trap`).
func IsCallOf(n syntax.Node, name string) bool {
	ce, ok := n.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && WordLit(ce.Args[0]) == name
}

func inspectStmts(list []*syntax.Stmt, f func(syntax.Node) bool) {
	for _, s := range list {
		Inspect(s, f)
	}
}

func inspectWords(list []*syntax.Word, f func(syntax.Node) bool) {
	for _, w := range list {
		Inspect(w, f)
	}
}

func inspectParts(list []syntax.WordPart, f func(syntax.Node) bool) {
	for _, p := range list {
		Inspect(p, f)
	}
}

// inspectArithm inspects the expressions that are there.
func inspectArithm(f func(syntax.Node) bool, xs ...syntax.ArithmExpr) {
	for _, x := range xs {
		if x != nil {
			Inspect(x, f)
		}
	}
}

func inspectParam(n *syntax.ParamExp, f func(syntax.Node) bool) {
	if n.Flags != nil {
		Inspect(n.Flags, f)
	}
	if n.Param != nil {
		Inspect(n.Param, f)
	}
	if n.NestedParam != nil {
		Inspect(n.NestedParam, f)
	}
	if n.Index != nil {
		Inspect(n.Index, f)
	}
	if s := n.Slice; s != nil {
		inspectArithm(f, s.Offset, s.Length)
	}
	if r := n.Repl; r != nil {
		if r.Orig != nil {
			Inspect(r.Orig, f)
		}
		if r.With != nil {
			Inspect(r.With, f)
		}
	}
	if n.Exp != nil && n.Exp.Word != nil {
		Inspect(n.Exp.Word, f)
	}
}
