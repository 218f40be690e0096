package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A foreground subshell that kills the script: `(cd /tmp && kill $$)`,
// `x=$(kill $$)`. $$ is the script's pid in every subshell, so the signal
// reaches the script's shell while it waits for the subshell; a TERM,
// INT or KILL it does not trap ends it there, as a `kill $$` of its own
// would (see kill_self.go): nothing after the subshell runs, the jobs live
// on (but mksh leading its group sends the signal on to it, see
// deathTakesGroup), bash and mksh run the EXIT trap as they die, zsh and
// dash do not. Checked under bash, zsh, dash and mksh in both caller
// modes: `server >log 2>&1 & P=$!; (kill $$); kill $P` leaves the server.
// What the subshell runs after its kill goes on without the script; a
// long program there (`(kill $$; server)`) is not followed.

// noteForkKill notes a kill of $$ (with sig) in a foreground subshell of
// the script's own shell that surely runs in it: the script dies of it as
// the walk comes back to it (see forkKilled).
func (w *walker) noteForkKill(sig string, ops []*syntax.Word) {
	if w.sh.kind != shSubshell || w.sh.async || w.job != nil || w.nest.depth != 0 || w.kills.forkKills {
		return
	}
	if terminates(sig) && w.surelyRuns() && slices.ContainsFunc(ops, isShellPid) {
		w.kills.forkKill, w.kills.forkKills = sig, true
	}
}

// forkKilled applies the kill a subshell just left (see noteForkKill) as
// the walk returns from it to its parent: the script's shell dies when
// the subshell surely ran there, unless it traps or ignores the signal;
// in a parent that is a subshell too, the kill waits for that one's end.
func (w *walker) forkKilled() {
	sig := w.kills.forkKill
	if !w.kills.forkKills {
		return
	}
	switch {
	case !w.surelyRuns():
		w.kills.forkKills, w.kills.forkByChild = false, false
	case w.sh.kind == shTop:
		if t := w.trapOn(sig); t != nil {
			w.runSelfTrap(*t) // (see kill_selftrap.go)
		}
		if !w.survives(sig) && !w.childKillSurvived(sig) {
			w.diesOf(sig)
		}
		w.kills.forkKills, w.kills.forkByChild = false, false
	}
}

// forkMayKill reports whether the foreground subshell s may kill the
// script with a kill of $$ (and with which signal) that runs in it where
// it may not run (`(cd /tmp && kill $$)`): for the script that is an exit
// that may be taken (see exits). A job in it that does is a watchdog (see
// walk_selfkill.go).
func forkMayKill(s *syntax.Subshell) (found bool, sig string) {
	return holdsFgKill(s, isShellPid)
}

// holdsFgKill reports whether n holds, outside its jobs, a kill that
// ends what an operand names (named), and with which signal.
func holdsFgKill(n syntax.Node, named func(*syntax.Word) bool) (found bool, sig string) {
	knowledge.Inspect(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return !found && !n.Background && !n.Coprocess
		case *syntax.CallExpr:
			if knowledge.IsCallOf(n, "kill") {
				s, ops, list := dialect.KillArgs(n.Args[1:])
				found = !list && terminates(s) && slices.ContainsFunc(ops, named)
				sig = s
			}
		}
		return !found
	})
	return found, sig
}

// forkKillEnds is the jobs a subshell's kill of $$ with sig ends as it
// kills the script: all of them where the script's death takes its group
// (mksh leading it), none elsewhere.
func (w *walker) forkKillEnds(sig string) []*Job {
	if w.survives(sig) || !w.deathTakesGroup(sig) {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(w.sh.jobs), func(j *Job) bool { return j.ignores(sig) })
}
