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
	if !w.sh.errexit || w.p.ended || s.Negated || s.Background {
		return false
	}
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok || w.status(s) >= 0 {
		return false
	}
	return w.shellEnds()
}
