package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// A watchdog that kills the script's own shell: `( sleep 30; kill $$ ) &`,
// `( sleep 30 && kill -9 $$ ) &`. $$ is the script's pid in every
// subshell, so the signal reaches the shell itself, not its jobs. While
// the shell waits for the watchdog (a bare `wait`, `wait $WD`), the
// watchdog fires for sure: the shell dies in that wait, the jobs it was
// waiting for are not waited for and run on (a server keeps the caller's
// output), and the commands after the wait never run. The EXIT trap runs
// as the shell dies in bash and mksh only (see
// dialect.topSignalRunsExitTrap), and mksh leading its group takes its
// jobs with it (dialect.selfTermTakesJobs). Checked under bash, zsh, dash and mksh
// in both caller modes. A shell that traps or ignores the signal goes on
// as before; a wait for other jobs only, which the watchdog may or may not
// outlast (`wait $PID`), is not followed.

// noteSelfKill marks the job whose body is being walked as such a
// watchdog when this kill (of sig, with operands ops) surely runs in it
// and names $$: the job is a direct statement of the script, and no
// nested shell (whose $$ is its own) lies in between. It returns the
// operands that may name jobs: in a job's body $$ is the script, never
// a job (mksh's subshell keeps the parent's table, where $$ taken as any
// job would end them all).
func (w *walker) noteSelfKill(sig string, ops []*syntax.Word) []*syntax.Word {
	j := w.job
	if j == nil || !slices.ContainsFunc(ops, isShellPid) {
		return ops
	}
	if j.TopLevel && w.nest.depth == j.Depth && w.surelyRuns() {
		j.selfKill, j.selfKillSig = true, sig
		j.selfKillAt, j.selfKillTimed = w.bounded-j.startBounded, w.slow == j.startSlow
	}
	return slices.DeleteFunc(slices.Clone(ops), isShellPid)
}

// selfKilled applies a wait of the script's own shell that waits for a
// watchdog of it (every: a wait for all jobs; otherwise the jobs named):
// the shell dies there (see above). It reports whether it did.
func (w *walker) selfKilled(named []*Job, every bool) bool {
	if w.job != nil || w.sh.kind != shTop || w.nest.depth != 0 || !w.surelyRuns() {
		return false
	}
	pending := w.pending()
	i := slices.IndexFunc(pending, func(j *Job) bool { return j.selfKill && (every || slices.Contains(named, j)) })
	if i < 0 {
		return false
	}
	wd := pending[i]
	sig := wd.selfKillSig
	if w.sh.ignored&dialect.SigBit(sig) != 0 && !uncatchable(sig) || w.shellTraps(sig) {
		return false
	}
	// What ends before the watchdog fires is reaped as the wait goes.
	for _, j := range pending {
		if j != wd && j.Quick && j.dur < wd.dur && (every || slices.Contains(named, j)) {
			w.waitedFor(j)
		}
	}
	w.end(wd) // its kill done, the watchdog's subshell ends
	if w.deathTakesGroup(sig) {
		w.killEachJob(pipeEvery) // mksh leading its group: they die with it
	}
	if uncatchable(sig) || !w.sh.d.TopSignalRunsExitTrap {
		w.sh.skipTraps = true
	}
	w.p.ended = true
	return true
}

// shellTraps reports whether the current shell has a trap that runs a
// command on sig.
func (w *walker) shellTraps(sig string) bool {
	if uncatchable(sig) {
		return false
	}
	b := dialect.SigBit(sig)
	return slices.ContainsFunc(w.sh.sigTraps, func(t sigTrap) bool { return t.sigs&b != 0 && !t.ends })
}
