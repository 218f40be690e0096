package walk

import (
	"slices"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A shell that GNU timeout ends while it waits for a foreground program
// leaves that program running: `timeout --foreground 60 sh -c './server;
// echo done'` signals the shell alone (coreutils timeout.c, cleanup:
// send_sig(monitored_pid, sig), and send_sig(0, sig) to the group only
// without --foreground), the shell dies and the server goes on with the
// descriptors it was given, the caller's output among them. Without
// --foreground the signal reaches the whole group, the server too, unless
// the server left it (`setsid ./server` in the string). A program the
// shell execs in place of itself (the last command of its -c string, see
// dialect.cTail) is the process timeout signals, and ends. A shell that
// holds the signal while it waits for a foreground child (see
// dialect.fgWaitHolds: bash and zsh on SIGINT and SIGQUIT, dash on SIGINT,
// mksh on all of them) waits on for the program instead, unless -k's KILL
// follows.

// timeoutCut watches, while the shell a timeout runs is walked, for the
// foreground program of that shell that runs when the limit is reached.
type timeoutCut struct {
	r       knowledge.Resolved // the timeout command
	slow    int                // the walker's counts when the shell started
	bounded time.Duration      //
	job     *Job               // the job the timeout runs in, if any
	sh      *shell             // the shell timeout runs, once its walk starts
	env     fdtable.Table      // the descriptors it started with
	// forks are the foreground subshells of that shell being walked, a
	// `( )` or `$(…)`: the shell dies, they wait on for their program.
	forks []*shell
	tails []tailExec // what that shell execs in place of itself
	done  bool       // the program at the limit was seen (or cannot be told)
	held  bool       // the shell holds the signal while that program runs
	// found are the programs the signal misses: the one at the limit, and
	// with it the other elements of the foreground pipeline it is in (see
	// walk_timeoutpipe.go).
	found []*timeoutLeft
	pipe  pipeCut
	// wd is the watchdog job whose kill of $$ this watches for (see
	// walk_watchdog.go), nil for a timeout.
	wd *Job
}

// timeoutLeft is the foreground program a timeout's signal leaves running.
type timeoutLeft struct {
	stmt          *syntax.Stmt
	src           *Source
	prog          knowledge.Resolved
	fds           fdtable.Table
	scope, region int
	inJob         bool
	rest          time.Duration // how long it runs on, when known
	bounded       bool
}

// watchTimeoutCut starts watching the shell the timeout r is about to
// run (see nestedShell), or returns nil when r sets no limit.
func (w *walker) watchTimeoutCut(r knowledge.Resolved) *timeoutCut {
	if !r.Timeout || r.Limit == 0 || !terminates(r.TimeoutSig) {
		return nil
	}
	cut := &timeoutCut{r: r, job: w.job, slow: w.slow, bounded: w.bounded}
	w.nest.starting.cut = cut
	return cut
}

// cutShellStarts gives the watch cut the shell whose script f is about to
// be walked.
func (w *walker) cutShellStarts(cut *timeoutCut, f *syntax.File, d *dialect.Dialect, env fdtable.Table) {
	cut.sh, cut.env = w.sh, env
	cut.tails = w.shellTails(f.Stmts, d, env)
}

// cutFork notes the foreground subshell sh that the shell parent forks
// (see subshell), when parent is the watched shell or one of its own,
// and returns the function that ends the note with sh.
func (w *walker) cutFork(parent, sh *shell) func() {
	cut := w.cut
	if cut == nil || cut.done && !cut.pipe.hit || !cut.owns(parent) {
		return func() {}
	}
	cut.forks = append(cut.forks, sh)
	return func() { cut.forks = slices.DeleteFunc(cut.forks, func(f *shell) bool { return f == sh }) }
}

// owns reports whether sh is the watched shell or a foreground subshell
// of it.
func (cut *timeoutCut) owns(sh *shell) bool {
	return sh != nil && (sh == cut.sh || slices.Contains(cut.forks, sh))
}

// cutCandidate looks at a program about to run in the foreground (r, with
// the descriptors inner, lasting d if ok) while a timeout's shell is
// walked: the first one during which the limit may be reached is the one
// the signal finds. It is left running when it is the watched shell's own
// child, not exec'd in place, and the signal misses it while ending the
// shell.
func (w *walker) cutCandidate(s *syntax.Stmt, r knowledge.Resolved, inner fdtable.Table, d time.Duration, ok bool) {
	cut := w.cut
	if cut == nil || cut.sh == nil {
		return
	}
	if cut.pipe.quick {
		return // a filter that ends with its input (see walk_timeoutpipe.go)
	}
	if cut.done {
		w.cutPipeElem(cut, s, r, inner) // the rest of the pipeline it is in
		return
	}
	elapsed := w.bounded - cut.bounded
	if ok && w.slow == cut.slow && elapsed+d <= cut.r.Limit {
		return // over before the limit
	}
	cut.done = true
	if w.slow != cut.slow || !cut.owns(w.sh) || w.job != cut.job || cut.execs(s) || w.cutReaches(cut, r) || w.watchdogMisses(cut, r) {
		return // (the limit may come earlier, or elsewhere)
	}
	if cut.held = w.holdsCut(cut); cut.held {
		if cut.wd != nil {
			w.watchdogFires(cut, s, ok, true) // the script dies once it ended
		}
		return // the shell waits for it: so does timeout
	}
	cut.found = append(cut.found, &timeoutLeft{stmt: s, src: w.src, prog: r, fds: inner, scope: w.scope(), region: w.exitRegion(), inJob: w.job != nil, rest: d - (cut.r.Limit - elapsed), bounded: ok})
	cut.pipe.hit = cut.pipe.c != nil
	if cut.wd != nil {
		w.watchdogFires(cut, s, ok, false)
	}
}

func (cut *timeoutCut) execs(s *syntax.Stmt) bool {
	for _, t := range cut.tails {
		if t.stmt == s {
			return true
		}
	}
	return false
}

// cutReaches reports whether the timeout's signal reaches the watched
// shell's foreground program p: sent to the whole group, which p has not
// left, and not ignored there.
func (w *walker) cutReaches(cut *timeoutCut, p knowledge.Resolved) bool {
	sig := cut.r.TimeoutSig
	return !cut.r.TimeoutFg && !p.Setsid && !(p.Nohup && dialect.SigBit(sig) == dialect.SigBit("HUP"))
}

// holdsCut reports whether the watched shell, being walked, outlives the
// timeout's signal while it waits for its foreground program (then
// timeout waits too): it holds or traps the signal, and no -k KILL
// follows.
func (w *walker) holdsCut(cut *timeoutCut) bool {
	sig := cut.r.TimeoutSig
	holds := w.sh.d.FgWaitHolds
	if cut.wd != nil {
		holds = w.sh.d.JobSigWaits // (see walk_watchdog.go)
	}
	return !uncatchable(sig) && !cut.r.TimeoutKill && (holds&dialect.SigBit(sig) != 0 || w.survives(sig))
}

// timeoutReturns sets the counts, once the shell a timeout ran has been
// walked and the limit is reached, to the limit's (slow and bounded are
// the counts with it, before the shell): timeout returns then, unless the
// shell held its signal.
func (w *walker) timeoutReturns(cut *timeoutCut, slow int, bounded time.Duration) {
	if cut != nil && !cut.held {
		w.slow, w.bounded = slow, bounded
	}
}

// timeoutLeaves adds, once the timeout's shell has been walked and its
// limit is reached, the foreground program its signal left running: a
// process the script has no handle on, holding what it was given.
func (w *walker) timeoutLeaves(cut *timeoutCut, start, end int) {
	if cut == nil {
		return
	}
	for _, f := range cut.found {
		for fd, t := range f.fds {
			if t == fdtable.TBlock && cut.env[fd] != fdtable.TBlock {
				f.fds[fd] = fdtable.TNone // a pipe the dead shell read (`x=$(./server)`)
			}
		}
		j := w.p.newJob(Job{Stmt: f.stmt, Src: f.src, Fds: f.fds, Kind: jobForked, Nohup: f.prog.Nohup, Setsid: f.prog.Setsid, Prog: f.prog.All, inJob: f.inJob, CutLeft: true})
		j.Start, j.End = start, end
		j.InNested, j.remote = true, w.nest.remote > 0
		j.scope, j.region = f.scope, f.region
		j.timed, j.dur = f.bounded, f.rest
		j.Quick = f.bounded && f.rest < knowledge.BriefJob
		w.p.Jobs = append(w.p.Jobs, j)
		if w.sh.kind == shSubshell {
			w.sh.jobs = append(w.sh.jobs, j)
		}
	}
}
