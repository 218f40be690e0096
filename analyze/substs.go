package analyze

import "mvdan.cc/sh/v3/syntax"

// eachSubst calls f for every command substitution (*syntax.CmdSubst)
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
func eachSubst(n syntax.Node, f func(syntax.Node)) {
	switch n := n.(type) {
	case nil:
	case *syntax.Word:
		for _, p := range n.Parts {
			eachSubst(p, f)
		}
	case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, p := range n.Parts {
			eachSubst(p, f)
		}
	case *syntax.CmdSubst, *syntax.ProcSubst:
		f(n)
	case *syntax.ParamExp:
		if n.NestedParam != nil {
			eachSubst(n.NestedParam, f)
		}
		if n.Index != nil {
			eachSubst(n.Index, f)
		}
		if s := n.Slice; s != nil {
			if s.Offset != nil {
				eachSubst(s.Offset, f)
			}
			if s.Length != nil {
				eachSubst(s.Length, f)
			}
		}
		if r := n.Repl; r != nil {
			if r.Orig != nil {
				eachSubst(r.Orig, f)
			}
			if r.With != nil {
				eachSubst(r.With, f)
			}
		}
		if n.Exp != nil && n.Exp.Word != nil {
			eachSubst(n.Exp.Word, f)
		}
	case *syntax.ArithmExp:
		eachSubst(n.X, f)
	case *syntax.ArithmCmd:
		eachSubst(n.X, f)
	case *syntax.BinaryArithm:
		eachSubst(n.X, f)
		eachSubst(n.Y, f)
	case *syntax.UnaryArithm:
		eachSubst(n.X, f)
	case *syntax.ParenArithm:
		eachSubst(n.X, f)
	case *syntax.FlagsArithm:
		if n.X != nil {
			eachSubst(n.X, f)
		}
	case *syntax.TestClause:
		eachSubst(n.X, f)
	case *syntax.BinaryTest:
		eachSubst(n.X, f)
		eachSubst(n.Y, f)
	case *syntax.UnaryTest:
		eachSubst(n.X, f)
	case *syntax.ParenTest:
		eachSubst(n.X, f)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			eachSubst(x, f)
		}
	case *syntax.CStyleLoop:
		for _, x := range [...]syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
			if x != nil {
				eachSubst(x, f)
			}
		}
	default:
		// (inspect, unlike syntax.Walk, keeps f on the callers' stack)
		inspect(n, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				f(n)
				return false
			}
			return true
		})
	}
}
