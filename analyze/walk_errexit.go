package analyze

import "mvdan.cc/sh/v3/syntax"

// errexitEnds reports whether s, a statement of the script's top level
// just walked, ends the shell under set -e: a simple command whose status
// is known to be a failure (`false`, dash's `trap … SIGINT EXIT`, a group
// kill of a job that leads no group). set -e exempts a command in a
// condition or before && or ||, and a negated one; a failure the walk
// cannot know (a test run that fails) is not followed. The EXIT trap
// runs, as for exit. So `set -e; trap "trap - SIGTERM && kill -- -$$"
// SIGINT SIGTERM EXIT; server &` under dash ends at the trap, before the
// server starts.
func (w *walker) errexitEnds(s *syntax.Stmt) bool {
	return !w.p.ended && w.errexitFails(s) && w.shellEnds()
}

// errexitFails reports whether set -e ends the shell at s: a simple
// command, not negated, whose status is known to be a failure.
func (w *walker) errexitFails(s *syntax.Stmt) bool {
	if !w.sh.errexit || s.Negated || s.Background {
		return false
	}
	_, ok := s.Cmd.(*syntax.CallExpr)
	return ok && w.status(s) < 0
}

// trapErrexitEnds reports whether s, just walked in list, ends the EXIT
// trap being run: under set -e bash, zsh, dash and mksh stop the trap's
// action at its first failing command, also in a function it calls (`set
// -e; trap 'false; kill $P' EXIT` leaves the server). list must be the
// action's own or the called function's body (trapListsOf): a condition
// or the left of && or || is exempt, as at the top.
func (w *walker) trapErrexitEnds(list []*syntax.Stmt, s *syntax.Stmt) bool {
	if len(w.trapLists) == 0 || w.cond != 0 || !w.errexitFails(s) {
		return false
	}
	for _, l := range w.trapLists {
		if len(l) > 0 && &l[0] == &list[0] {
			return true
		}
	}
	return false
}

// trapListsOf is an EXIT trap's action and the bodies of the functions it
// calls at its top (`trap cleanup EXIT`), where set -e ends the trap.
func (w *walker) trapListsOf(action []*syntax.Stmt) [][]*syntax.Stmt {
	lists := [][]*syntax.Stmt{action}
	for _, s := range action {
		ce, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			continue
		}
		if r := w.p.resolveCall(ce); w.callsFunc(r) {
			if b, ok := w.funcs[r.name].body.Cmd.(*syntax.Block); ok {
				lists = append(lists, b.Stmts)
			}
		}
	}
	return lists
}

// nestedErrexitEnds reports whether s, a statement of list just walked,
// ends a nested shell under set -e, as errexitEnds does the script's own
// shell: list is the top level of that shell's script (`sh -c 'set -e;
// …'`, `bash -e -c '…'`, a script file or stdin it runs), not a
// compound's, a function's or an eval'd string's. The shell's EXIT trap
// runs (see endShell); its jobs run on.
func (w *walker) nestedErrexitEnds(list []*syntax.Stmt, s *syntax.Stmt) bool {
	if !w.sh.errexit || w.sh.kind != shNested || !w.src.script {
		return false
	}
	top := w.src.file.Stmts
	return len(top) > 0 && &list[0] == &top[0] && !w.sh.ended && w.errexitFails(s) && w.fatal()
}
