package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A watchdog of the script that fires while the script runs a program in
// its foreground: `( sleep 30; kill $$ ) & ./long-job; echo done`. The
// signal goes to the script's shell alone, not to the program it waits
// for: bash, zsh and dash die of a TERM or HUP at once, zsh of an INT
// too, and the program runs on with what it was given, the caller's
// output among them (measured under the four shells in both caller modes:
// `(sleep 0.5; kill $$) & sleep 2; echo done` hangs the caller until the
// sleep ends, and the echo never runs). dash (INT) and mksh (TERM, HUP,
// INT, QUIT) end only once the program ended (dialect.jobSigWaits), and
// bash goes on after an INT (dialect.childIntSurvives). As a shell killed
// by its own kill, bash and mksh run the EXIT trap, zsh and dash do not,
// and mksh leading its group takes its jobs with it (see diesOf); a trap
// on the signal runs instead, and the script goes on unless it exits (see
// kill_selftrap.go). A program the script execs (`exec ./long-job`) is the
// process the kill reaches, and ends.
//
// Which program runs when the watchdog fires is the one `timeout
// --foreground` would find at the same limit (see walk_timeoutcut.go): the
// watchdog's delay, the literal durations of its body before the kill,
// against the literal durations the script spends from the watchdog's
// start. Where the script runs a program of unknown length first (a build,
// a test run), whether the watchdog fires during it is not known: the walk
// takes that program as left running, the outcome that hangs the caller,
// and goes on with the rest of the script, which runs when it ended in
// time. A wait for another job the watchdog outlasts ends the same way
// (`./server & P=$!; ( sleep 30; kill $$ ) & wait $P`): the script dies in
// the wait and the job runs on. A watchdog whose delay is not literal is
// not followed.

// watchdogStarts watches the rest of the script for the watchdog job j
// the script just started with the descriptors env, as a timeout of its
// delay with --foreground's signal to the shell alone.
func (w *walker) watchdogStarts(j *Job, env fdtable.Table) {
	sig := j.selfKillSig
	if !j.selfKill || !j.TopLevel || !j.selfKillTimed || j.selfKillAt <= 0 || w.cut != nil || w.sh.kind != shTop || w.job != nil || w.nest.depth != 0 {
		return
	}
	if !terminates(sig) || dialect.SignalName(sig) == "QUIT" || w.sh.d.ChildIntSurvives && dialect.SigBit(sig) == dialect.SigBit("INT") {
		return // (QUIT: bash, zsh and dash ignore it; bash goes on after an INT)
	}
	cut := &timeoutCut{r: knowledge.Resolved{Timeout: true, TimeoutFg: true, Limit: j.selfKillAt, TimeoutSig: sig}, slow: w.slow, bounded: w.bounded, sh: w.sh, env: env, wd: j}
	for _, s := range w.p.inPlaceStmts() {
		cut.tails = append(cut.tails, tailExec{stmt: s})
	}
	w.cut = cut
}

// watchdogMisses reports whether the watchdog of cut, firing while the
// program r runs, has an effect the walk does not follow or that ends r
// itself: an exec'd program is the process $$ names.
func (w *walker) watchdogMisses(cut *timeoutCut, r knowledge.Resolved) bool {
	if cut.wd == nil || !r.Exec {
		return false
	}
	w.end(cut.wd) // its kill ends the program in the shell's place
	return true
}

// watchdogFires applies the watchdog of cut, which fires while the
// program s runs in the script's foreground: left running where the shell
// does not wait for it (held), and where the program lasts a literal time
// (sure), the script dies there, at once or once s ended, unless a trap on
// the signal keeps it going.
func (w *walker) watchdogFires(cut *timeoutCut, s *syntax.Stmt, sure, held bool) {
	if !held {
		start, end := w.src.Outer(int(s.Cmd.Pos().Offset())), w.src.Outer(int(s.Cmd.End().Offset()))
		n := len(w.p.Jobs)
		w.timeoutLeaves(cut, start, end)
		for _, j := range w.p.Jobs[n:] {
			j.WdLeft = true
		}
		cut.found = nil // (added: not again)
	}
	if sure {
		w.watchdogKills(cut)
	}
}

// watchdogKills applies the watchdog's kill of the script's shell, at its
// delay: its trap on the signal runs, or the script dies (see diesOf).
func (w *walker) watchdogKills(cut *timeoutCut) {
	saved := w.sh
	w.sh = cut.sh
	defer func() { w.sh = saved }()
	sig := cut.r.TimeoutSig
	w.bounded = max(w.bounded, cut.bounded+cut.r.Limit) // (no kill right after a job's start: see killLost)
	w.end(cut.wd)                                       // its kill done, the watchdog's subshell ends
	if t := w.trapOn(sig); t != nil {
		w.runSelfTrap(*t)
	}
	if !w.survives(sig) {
		w.diesOf(sig)
	}
}

// watchdogWaitDies applies the watchdog of the script to a wait for the
// job j, which it outlasts: the watchdog's kill ends the wait, j runs on,
// and the script dies there unless a trap on the signal keeps it going.
// It reports whether the wait was cut short.
func (w *walker) watchdogWaitDies(j *Job) bool {
	cut := w.cut
	if cut == nil || cut.wd == nil || cut.done || w.sh != cut.sh || w.job != nil || j == cut.wd || !w.surelyRuns() {
		return false
	}
	elapsed := w.bounded - cut.bounded
	if j.Quick || j.timed && w.slow == cut.slow && elapsed+j.dur <= cut.r.Limit {
		return false // over before the watchdog fires
	}
	cut.done = true
	if w.slow != cut.slow || w.sh.ignored&dialect.SigBit(cut.r.TimeoutSig) != 0 {
		return false // (it may have fired before; an ignored signal does nothing)
	}
	w.watchdogKills(cut)
	return true
}
