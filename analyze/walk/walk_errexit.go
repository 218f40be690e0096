package walk

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
	if len(w.traps.trapLists) == 0 || w.cond != 0 || !w.errexitFails(s) {
		return false
	}
	for _, l := range w.traps.trapLists {
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
			if b, ok := w.fns.funcs[r.Name].body.Cmd.(*syntax.Block); ok {
				lists = append(lists, b.Stmts)
			}
		}
	}
	return lists
}

// errexitExits tells whether s, run in the current shell under set -e,
// fails where set -e ends the shell: a simple command known to fail (as
// errexitFails), a pipeline whose status is one (see pipeFails), or a ( ) subshell whose own set -e ends it (`(cd app; false)`:
// the subshell's status is the failure's, and the shell that waits for it
// ends too; a maybe where the subshell's end is one, `(cd app && false)`;
// one whose status is a failure set -e ignored inside, `(source env.sh &&
// make)` in dash, ends it as well, while a group's does not).
// What set -e ends inside a group, an if branch, a loop's body, a
// function the shell calls or the last command of an and-or list (`cd app
// && false`) is found by exits walking into them: a failure there ends
// the shell as an exit would, in all four shells. Conditions, the left of
// && and ||, and negated commands are exempt, with everything they run
// (see errexitOff). Only failures the walk knows are followed: a test run
// that may fail is not.
func (w *walker) errexitExits(s *syntax.Stmt, depth int) exitKind {
	if !w.sh.errexit || s.Negated || s.Background || s.Coprocess {
		return endsNever
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if w.status(s) < 0 {
			return endsSurely
		}
	case *syntax.BinaryCmd:
		if (c.Op == syntax.Pipe || c.Op == syntax.PipeAll) && w.pipeFails(c) {
			return endsSurely
		}
	case *syntax.Subshell:
		// (its exit words, `(exit 0)`, are left out: the end must be
		// set -e's own)
		if mentionsExit(w.src.Text, s, w.sh.d) {
			break
		}
		if w.status(s) < 0 {
			return endsSurely // (false && true): its status is false's
		}
		return w.listExits(c.Stmts, depth)
	}
	return endsNever
}

// pipeFails reports whether the pipeline c fails for sure: its last
// element is known to fail (`curl … | false`; zsh runs that one itself,
// where exits finds it), or under set -o pipefail any element is (`false
// | tee log`, in bash, zsh and mksh; dash has no pipefail).
func (w *walker) pipeFails(c *syntax.BinaryCmd) bool {
	if !w.sh.d.LastPipeHere && w.status(lastPipeElem(c)) < 0 {
		return true
	}
	return w.sh.pipefail && (w.elemFails(c.X) || w.elemFails(c.Y))
}

// elemFails reports whether s, an element of a pipeline or a pipeline
// nested in one (`a | b | c` is `(a | b) | c`), is known to fail.
func (w *walker) elemFails(s *syntax.Stmt) bool {
	if c, ok := s.Cmd.(*syntax.BinaryCmd); ok && (c.Op == syntax.Pipe || c.Op == syntax.PipeAll) && !s.Negated {
		return w.elemFails(c.X) || w.elemFails(c.Y)
	}
	return w.status(s) < 0
}

// errexitOff suspends set -e in the current shell for a condition, the
// left of && or ||, or a negated compound, and everything they run
// (functions, subshells): a failure there ends nothing in any of the four
// shells (`f || true` runs f's body to its end). errexitOn undoes it;
// where set -e is off, both change nothing.
func (w *walker) errexitOff() (*shell, bool) {
	sh, on := w.sh, w.sh.errexit
	sh.errexit = false
	return sh, on
}

func errexitOn(sh *shell, on bool) {
	if on {
		sh.errexit = true
	}
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
	top := w.src.File.Stmts
	return len(top) > 0 && &list[0] == &top[0] && !w.sh.ended && w.errexitFails(s) && w.fatal()
}
