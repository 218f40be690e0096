package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// fgSubshell notes, for the foreground subshell w.sh that parent just
// forked to run list (a pipeline element: elem) as form, whether its
// process is the script's own child; which of its commands it execs in
// place of itself is worked out when asked (see inPlaceOf): most
// subshells run no nested shell.
func (w *walker) fgSubshell(parent *shell, list []*syntax.Stmt, elem *syntax.Stmt, form dialect.SubshellForm) {
	if w.job != nil || w.nest.depth != 0 || parent.async {
		return
	}
	sh := w.sh
	switch {
	case parent.kind == shTop:
	case parent.kind != shSubshell || !parent.scriptChild || elem == nil && len(list) == 0:
		return
	default:
		outer := w.inPlaceOf(parent)
		if elem != nil {
			list = []*syntax.Stmt{elem}
		}
		switch {
		case slices.ContainsFunc(outer, func(s *syntax.Stmt) bool { return within(s, list) }):
			// the parent's in-place command is inside: zsh and dash
			// followed it through this `( )`, which is the same process
			sh.inPlace, sh.inPlaceKnown = outer, true
		case !slices.ContainsFunc(outer, func(s *syntax.Stmt) bool { return bodyOf(s, list) }):
			return
		}
		// `echo | (cd app; sh -c …)`, `( (sh -c …) )`: the `( )` runs
		// in place of the parent
	}
	sh.scriptChild, sh.fgBody, sh.fgElem, sh.fgForm = true, list, elem, form
}

// inPlaceOf is what the foreground subshell sh of the script execs in
// place of itself (see fgTails), worked out once.
func (w *walker) inPlaceOf(sh *shell) []*syntax.Stmt {
	if !sh.scriptChild || sh.inPlaceKnown {
		return sh.inPlace
	}
	sh.inPlaceKnown = true
	list := sh.fgBody
	if sh.fgElem != nil {
		list = []*syntax.Stmt{sh.fgElem}
	}
	sh.inPlace = w.fgTails(list, sh.fgForm, sh.d)
	return sh.inPlace
}

// within reports whether the statement s lies inside the list.
func within(s *syntax.Stmt, list []*syntax.Stmt) bool {
	return s.Pos().Offset() >= list[0].Pos().Offset() && s.End().Offset() <= list[len(list)-1].End().Offset()
}

// bodyOf reports whether list is the body of the `( )` statement s.
func bodyOf(s *syntax.Stmt, list []*syntax.Stmt) bool {
	sub, ok := s.Cmd.(*syntax.Subshell)
	return ok && len(sub.Stmts) > 0 && sub.Stmts[0] == list[0]
}

// fgTails returns the statements of list that a foreground subshell of
// this form execs in place of itself (see above).
func (w *walker) fgTails(list []*syntax.Stmt, form dialect.SubshellForm, d *dialect.Dialect) []*syntax.Stmt {
	var env fdtable.Table // (the commands only)
	n := len(list)
	if n == 0 {
		return nil
	}
	var ts []tailExec
	switch d.FgTail {
	case dialect.FgTailBg:
		if dialect.TrapsSetBy(list, d, dialect.TrapsZsh) {
			return nil
		}
		ts, _ = w.execdTail(list[n-1], d.BgTail, env, true, nil)
	case dialect.FgTailBash:
		if n == 1 && form != dialect.FormSubst && w.loneInPlace(list[0]) {
			return list
		}
		ts = w.parenTails(list, d, env)
	case dialect.FgTailLone:
		if n == 1 && w.loneInPlace(list[0]) {
			return list
		}
		ts, _ = w.execdTail(list[n-1], 0, env, false, nil) // an explicit exec
	}
	var out []*syntax.Stmt
	for _, t := range ts {
		out = append(out, t.stmt)
	}
	return out
}

// loneInPlace reports whether s, alone in a subshell, is run in place of
// it: a program (not a builtin or a function of the script), redirected
// or not, or a `( )`.
func (w *walker) loneInPlace(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || s.Negated {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return len(c.Args) > 0 && (w.p.resolveCall(c).Exec || w.execsTail(c))
	case *syntax.Subshell:
		return true
	}
	return false
}
