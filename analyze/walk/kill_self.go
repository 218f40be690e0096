package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A kill that reaches the shell's own process: `kill $$`, `kill 0` (its
// process group, the shell in it), `kill -- -$$` when it leads the group,
// zsh's `kill $!` before any job ($! is 0 there), `kill $(pgrep -f …)`
// whose pattern finds the shell's own command line. Unless the shell traps
// or ignores the signal, it dies right there: nothing after the kill runs,
// in bash, zsh, dash and mksh alike, and its jobs live on (none of the
// four signals them; `server & kill $$` leaves the server with the
// caller's output, in both caller modes), but for mksh's last act (see
// deathTakesGroup). As it dies, bash and mksh run its EXIT trap, zsh and
// dash do not, and on KILL none does (see dialect.topSignalRunsExitTrap).
// $$ never names a job: before, the walk took `kill $$` for a kill of
// every job. Checked under the four shells, as group leader and in the
// caller's group, each shape three times.
//
// A subshell's $$ is its parent's: `(kill $$)` kills the script while the
// subshell goes on, which the walk does not follow (nor a watchdog's
// `kill 0`, which reaches the script from a job; see walk_selfkill.go
// for its `kill $$`).

// selfOperand reports whether a kill operand names the process of the
// shell being walked (see above).
func (w *walker) selfOperand(a *syntax.Word) bool {
	if w.sh.kind == shSubshell {
		return knowledge.WordLit(a) == "0" || w.killsShell(a) // (pgrep finds the fork too)
	}
	switch {
	case knowledge.WordLit(a) == "0" || isShellPid(a) || w.killsShell(a) || w.readsZero(a):
		return true
	case w.sh.d.BangZero && w.sh.last == nil && isLastPid(a):
		return true // zsh: kill 0
	}
	return w.sh.leads && negatedPid(a) && len(a.Parts) == 2 && isShellPid(&syntax.Word{Parts: a.Parts[1:]})
}

// killsItself reports whether kill with these arguments signals the
// shell's own process with a signal that ends it.
func (w *walker) killsItself(sig string, ops []*syntax.Word) bool {
	if !terminates(sig) || w.survives(sig) {
		return false
	}
	for _, a := range ops {
		if w.selfOperand(a) {
			return true
		}
	}
	return false
}

// survives reports whether the shell goes on after it sends itself sig:
// it traps or ignores it.
func (w *walker) survives(sig string) bool {
	return !uncatchable(sig) && (w.sh.ignored&dialect.SigBit(sig) != 0 || w.shellTraps(sig))
}

// diesOf ends the shell being walked, which sent itself sig, where the
// kill runs for sure: the script's own shell (pass.ended), a nested shell
// (its own $$) or a subshell (kill 0). A maybe is left to exits, which
// makes what follows a maybe.
func (w *walker) diesOf(sig string) {
	if !w.surelyRuns() {
		return
	}
	switch {
	case w.sh.kind != shTop:
		w.sh.ended = true // a nested shell, or a subshell's kill 0
	case w.job == nil && w.nest.depth == 0:
		w.p.ended = true
	default:
		return
	}
	if w.deathTakesGroup(sig) {
		w.killAll(sig) // (a job it signals too soon lives on, see killLost)
	}
	if uncatchable(sig) || !w.sh.d.TopSignalRunsExitTrap {
		w.sh.skipTraps = true
	}
}

// deathTakesGroup reports whether the shell, as a TERM or INT it does
// not trap kills it, sends the signal on to its whole process group
// (dialect.selfTermTakesJobs: mksh leading its group, without an EXIT
// trap, whose end is a plain exit; main.c's unwind: `kill(0, sig)`), which
// ends the jobs that do not ignore it: `server & sleep 1; kill $$` stops
// the server there, `kill -INT $$` leaves it (jobs ignore INT).
func (w *walker) deathTakesGroup(sig string) bool {
	if !w.sh.d.SelfTermTakesJobs || !w.sh.leads || len(w.sh.traps) > 0 {
		return false
	}
	n := dialect.SignalName(sig)
	return (n == "" || n == "TERM" || n == "15" || n == "INT" || n == "2") && !w.jobsIgnore(sig)
}

// killEndsShell reports whether a simple command is a kill by which the
// shell ends itself (see above), for exits: `if …; then kill $$; else
// kill $$; fi` ends it on every branch.
func (w *walker) killEndsShell(ce *syntax.CallExpr) bool {
	if len(ce.Args) < 2 {
		return false
	}
	if r := w.p.resolveCall(ce); r.Name != "kill" || r.Wrapped || w.callsFunc(r) {
		return false
	}
	args := ce.Args[1:]
	sig, ops, list := dialect.KillArgs(args)
	if list || w.killFails(args) {
		return false
	}
	ops, _ = w.groupsLookedUp(ops)
	ops = w.parsedOperands(ops)
	return w.killsItself(sig, ops)
}
