package analyze

import (
	"slices"

	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// What a foreground subshell of the script execs in place of itself. A
// `( )`, a `$(…)` or a pipeline element is a fork of the script, and the
// program it runs is that fork's child, unless the fork execs it: then
// it is the script's own child, and a nested shell there has the script
// for its $PPID. `(sh -c 'kill $PPID')`, `x=$(sh -c 'kill $PPID')` and
// `echo | sh -c 'kill $PPID'` kill the script in all four shells, as a
// nested shell the script runs itself does (see walk_ppidkill.go), while
// `(sh -c 'kill $PPID'; echo)` kills the subshell only and the script
// goes on. Which commands each shell execs was measured by comparing a
// nested sh's $PPID with the script's $$ in 68 shapes (bash 5.2, zsh 5.9,
// dash 0.5.12, mksh R59):
//
//   - bash: a lone program of a `( )` (redirected too) or of a `$(…)`
//     (not redirected); the last of a list and the right of an && or ||
//     that is the whole last command, unredirected, not after a `&`, with
//     no trap with an action set before it (parenTails); a pipeline
//     element that is one program, and a `( )` element, as a `( )`; never
//     inside { }, if or case.
//   - zsh and dash: what they exec in the subshell of a background job
//     (dialect.bgTail: through lists, && and ||, { }, if, case and `( )`,
//     redirected or not; zsh also a one-word for loop), unless a trap with
//     an action was set before it.
//   - mksh: a lone program (redirected too), and a lone `( )`.
//
// A function's body is not followed (bash's `x=$(f)` execs the last
// command of f, its `(f)` does not; zsh and dash neither).
type fgTailRule uint8

const (
	fgTailBash fgTailRule = iota // see above
	fgTailBg                     // zsh, dash
	fgTailLone                   // mksh
)

// fgSubshell notes, for the foreground subshell w.sh that parent just
// forked to run list (a pipeline element: elem) as form, whether its
// process is the script's own child; which of its commands it execs in
// place of itself is worked out when asked (see inPlaceOf): most
// subshells run no nested shell.
func (w *walker) fgSubshell(parent *shell, list []*syntax.Stmt, elem *syntax.Stmt, form subshellForm) {
	if w.job != nil || w.depth != 0 || parent.async {
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
func (w *walker) fgTails(list []*syntax.Stmt, form subshellForm, d *dialect) []*syntax.Stmt {
	var env fdtable.Table // (the commands only)
	n := len(list)
	if n == 0 {
		return nil
	}
	var ts []tailExec
	switch d.fgTail {
	case fgTailBg:
		if trapsSetBy(list, d, trapsZsh) {
			return nil
		}
		ts, _ = w.execdTail(list[n-1], d.bgTail, env, true, nil)
	case fgTailBash:
		if n == 1 && form != formSubst && w.loneInPlace(list[0]) {
			return list
		}
		ts = w.parenTails(list, d, env)
	case fgTailLone:
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
