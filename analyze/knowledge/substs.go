package knowledge

import "mvdan.cc/sh/v3/syntax"

// EachSubst calls f for every command substitution (*syntax.CmdSubst)
// and process substitution (*syntax.ProcSubst) in an expansion: a word,
// an arithmetic or test expression, or an ((…)), [[ ]], let or C-style
// for header. It does not descend into what it hands to f; in source
// order, it finds what syntax.Walk finds when f's node stops the walk.
//
// Why not syntax.Walk: words are walked for every command the analysis
// visits, and a generic walk (an interface call and a closure per node)
// cost a sixth of linting a large script. Only these node kinds can hold
// an expansion; a kind this switch does not know (a newer parser's) is
// handed to syntax.Walk, so nothing is missed.
func EachSubst(n syntax.Node, f func(syntax.Node)) {
	switch n := n.(type) {
	case nil:
	case *syntax.Word:
		for _, p := range n.Parts {
			EachSubst(p, f)
		}
	case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, p := range n.Parts {
			EachSubst(p, f)
		}
	case *syntax.CmdSubst, *syntax.ProcSubst:
		f(n)
	case *syntax.ParamExp:
		if n.NestedParam != nil {
			EachSubst(n.NestedParam, f)
		}
		if n.Index != nil {
			EachSubst(n.Index, f)
		}
		if s := n.Slice; s != nil {
			if s.Offset != nil {
				EachSubst(s.Offset, f)
			}
			if s.Length != nil {
				EachSubst(s.Length, f)
			}
		}
		if r := n.Repl; r != nil {
			if r.Orig != nil {
				EachSubst(r.Orig, f)
			}
			if r.With != nil {
				EachSubst(r.With, f)
			}
		}
		if n.Exp != nil && n.Exp.Word != nil {
			EachSubst(n.Exp.Word, f)
		}
	case *syntax.ArithmExp:
		EachSubst(n.X, f)
	case *syntax.ArithmCmd:
		EachSubst(n.X, f)
	case *syntax.BinaryArithm:
		EachSubst(n.X, f)
		EachSubst(n.Y, f)
	case *syntax.UnaryArithm:
		EachSubst(n.X, f)
	case *syntax.ParenArithm:
		EachSubst(n.X, f)
	case *syntax.FlagsArithm:
		if n.X != nil {
			EachSubst(n.X, f)
		}
	case *syntax.TestClause:
		EachSubst(n.X, f)
	case *syntax.BinaryTest:
		EachSubst(n.X, f)
		EachSubst(n.Y, f)
	case *syntax.UnaryTest:
		EachSubst(n.X, f)
	case *syntax.ParenTest:
		EachSubst(n.X, f)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			EachSubst(x, f)
		}
	case *syntax.CStyleLoop:
		for _, x := range [...]syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
			if x != nil {
				EachSubst(x, f)
			}
		}
	default:
		// (inspect, unlike syntax.Walk, keeps f on the callers' stack)
		Inspect(n, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				f(n)
				return false
			}
			return true
		})
	}
}
