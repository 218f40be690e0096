package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// jobsNamed resolves the arguments of wait, kill and disown to jobs of the
// current shell. all is true when an argument could be any job.
func (w *walker) jobsNamed(args []*syntax.Word) (named []*Job, all bool, any bool) {
	for _, a := range args {
		lit := argText(a)
		if lit != "" && strings.HasPrefix(lit, "-") {
			continue // options and signals
		}
		if l, ok := a.Parts[0].(*syntax.Lit); ok && lit == "" && strings.HasPrefix(l.Value, "-") {
			// -$! or -$pid: a process group (or a signal in a variable).
			// A job leads a group of its own only under set -m; without
			// job control `kill -- -$!` reaches nothing (bash: "No such
			// process"), and the job keeps running.
			if !w.sh.monitor {
				continue
			}
		}
		if lit == "" && w.joinsPids(a) {
			any = true // "$API $WEB": no pid the builtin takes
			continue
		}
		if lit == "" {
			js, known, empty := w.argJobs(a)
			if empty && (!hasQuotes(a) || w.sh.d.EmptyArgIgnored) {
				continue // expands to nothing: no argument at all
			}
			any = true
			named = append(named, js...)
			if !known {
				all = true // a pid we did not see saved…
			}
			continue
		}
		any = true
		if strings.HasPrefix(lit, "%") {
			js := w.jobSpec(lit)
			if w.sh.d.SpecsSignalGroup {
				// dash: kill %N signals the job's process group, which only
				// a job that made itself a group leader (setsid, GNU timeout
				// without --foreground) has, or a pipeline whose first
				// process did.
				js = slices.DeleteFunc(js, func(j *Job) bool { return !j.Setsid && !j.timeoutGroup && !j.leadsGroup })
			}
			named = append(named, js...)
		}
		// any other literal: a pid or name, not one of ours as far as we know
	}
	return named, all, any
}

// currentJob is the job a bare disown takes: the last one started, and
// in bash the last one still in the table (see running): `server & quick
// & sleep 1; disown` disowns the server, while right after `quick &` the
// quick job is still there and disown takes it.
func (w *walker) currentJob() []*Job {
	for i := len(w.sh.jobs) - 1; i >= 0; i-- {
		j := w.sh.jobs[i]
		if !w.specSees(j) {
			continue
		}
		if !w.sh.d.CurrentSkipsDone || w.running(j) || i == 0 {
			return []*Job{j}
		}
	}
	return nil
}

// argText is an argument of kill, wait or disown as the builtin sees it:
// the word without its quotes when it expands nothing, else "". The shell
// removes the quotes before the builtin runs, so `kill "%1"` names job 1
// as `kill %1` does, and kills nothing else (bash, zsh, dash and mksh).
func argText(a *syntax.Word) string { return knowledge.Value(a) }

// wait walks a wait for the jobs args name; at is the command (or the
// polling loop) that waits, where one that never returns is marked (nil:
// a later call of a function already walked, marked at its first).
func (w *walker) wait(args []*syntax.Word, at syntax.Node) {
	if w.guardLifted(args) {
		// `for p in $pids; do wait $p; done`, `[ -n "$P" ] && wait $P`:
		// as sure as the guard's command (see kill_guard.go)
		top := w.scope()
		w.condOut()
		defer func() { w.cond++; w.scopes = append(w.scopes, top) }()
	}
	named, all, any := w.jobsNamed(args)
	nflag := false
	for _, a := range args {
		if o := knowledge.WordLit(a); strings.HasPrefix(o, "-") && o != "--" && !w.sh.d.WaitOptions {
			return // zsh, dash, mksh: `wait -n` is an error, and waits for nothing
		}
		if knowledge.WordLit(a) == "-n" {
			nflag = true
		}
	}
	if !nflag && w.selfKilled(named, !any || all) {
		return
	}
	pending := w.pending()
	w.noteEndlessWait(at, pending, named, nflag, !any || all) // (see walk_endless.go)
	switch {
	case nflag && !any && w.endedInTable():
		// bash: a job that ended and is not reaped yet is the next to
		// end: `kill %1; wait -n` returns at once, the other job running
	case nflag && (!any || all):
		if len(pending) == 1 {
			w.waitedFor(pending[0])
		}
	case nflag:
		// wait -n "$SERVER_PID" "$LOADER_PID": the first of them to end
		// returns it, and which one that is is not known unless the pids
		// name one job the shell can wait for.
		var reach []*Job
		for _, j := range named {
			if slices.Contains(pending, j) {
				reach = append(reach, j)
			}
		}
		if len(reach) == 1 {
			w.waitedFor(reach[0])
		}
	case !any || all:
		for _, j := range pending {
			w.waitedFor(j)
		}
	default:
		var bySpec []*Job // named by a job spec (%1), not a pid
		if w.sh.d.WaitPidOnly {
			for _, a := range args {
				if strings.HasPrefix(argText(a), "%") {
					js, _, _ := w.jobsNamed([]*syntax.Word{a})
					bySpec = append(bySpec, js...)
				}
			}
		}
		for _, j := range named {
			if j.Kind == jobPipeline && w.sh.d.WaitPidOnly && !slices.Contains(bySpec, j) {
				continue // only its last process is waited for
			}
			if !j.disowned && j.Kind != jobForked && w.sh.owns(j) {
				w.waitedFor(j) // only a child of this shell can be waited for
			}
		}
	}
}

// endedInTable reports whether one of the shell's own jobs was killed and
// is still in its table, not reaped yet (see running).
func (w *walker) endedInTable() bool {
	for _, j := range w.sh.own() {
		if j.Killed && !j.disowned && !j.waited && w.running(j) {
			return true
		}
	}
	return false
}

// waitedFor records that the shell waits for j: for sure, or, when the
// wait runs only if an earlier command succeeds (or fails), maybe.
func (w *walker) waitedFor(j *Job) {
	if w.watchdogWaitDies(j) {
		return // ( sleep 30; kill $$ ) & wait $P (see walk_watchdog.go)
	}
	if j.SubshellGone || slices.Contains(w.apart, j) {
		return // the subshell is dead; its last command runs on unwaited
	}
	if !w.sureFor(j) {
		j.CondEnd = true
		return
	}
	j.waited = true
	if o := w.job; o != nil && w.inJobShell(o) {
		o.innerWaited = append(o.innerWaited, j)
		// a kill finds o's shell in this wait rather than in a pause
		// after it (see job.pauses)
		o.fgSlow = o.fgSlow || !j.Quick
	}
	// The shell now lasts as long as the job does, or until a watchdog
	// killed it (see walk_watchdog.go).
	if at, known, fired := w.watchdogFired(j); fired && known {
		w.bounded = max(w.bounded, at)
	} else if fired {
		w.slow++
	} else if j.Quick {
		w.bounded += j.dur
	} else {
		w.slow++
	}
}

// pending returns the jobs of the current shell that wait can still reach.
func (w *walker) pending() []*Job {
	var js []*Job
	for _, j := range w.sh.own() {
		if !j.Resolved() && !j.disowned && j.Kind != jobForked {
			js = append(js, j)
		}
	}
	return js
}

func (w *walker) disown(args []*syntax.Word, c call) {
	var js []*Job
	hOnly, bad := false, false
	for i, a := range args {
		o := knowledge.WordLit(a)
		if len(o) < 2 || o[0] != '-' {
			continue
		}
		if strings.Trim(o[1:], w.sh.d.DisownOptions) != "" {
			// zsh: `disown -a` names a job it does not find, and
			// disown stops there
			args, bad = args[:i], true
			break
		}
		hOnly = hOnly || strings.Contains(o, "h")
	}
	named, all, any := w.jobsNamed(args)
	any = any || bad
	for _, a := range args {
		if o := knowledge.WordLit(a); len(o) > 1 && o[0] == '-' {
			all = all || strings.ContainsAny(o, "ar") // -r: the running ones, which all are
		}
	}
	if hOnly {
		return // -h keeps the job in the table, only spares it SIGHUP
	}
	switch {
	case all:
		js = w.pending()
	case any:
		js = named
	default:
		js = w.currentJob()
	}
	var long []*Job
	for _, j := range js {
		if !j.Resolved() && !j.disowned {
			j.disowned = true
			if !j.Quick {
				long = append(long, j) // a job that ends at once leaves nothing to outlive the shell
			}
		}
	}
	if len(long) > 0 {
		w.mark(mark{Rule: "SG2004", Start: c.Start, End: c.End, Jobs: long})
	}
}

// quotedIn reports whether the expansion pe sits inside double quotes in
// word (then no shell splits it).
func quotedIn(word *syntax.Word, pe *syntax.ParamExp) bool {
	for _, p := range word.Parts {
		if dq, ok := p.(*syntax.DblQuoted); ok && pe.Pos().After(dq.Left) && dq.Right.After(pe.Pos()) {
			return true
		}
	}
	return false
}

// listJobs is the jobs builtin run by the shell itself: where ended jobs
// stay in the table (dialect.doneJobsStay), it reports those that ended
// and takes them out.
func (w *walker) listJobs() {
	if !w.sh.d.DoneJobsStay || w.sureCond() > 0 || w.branching > 0 {
		return
	}
	for _, j := range w.sh.jobs {
		if j.waited || !w.running(j) {
			j.reported = true
		}
	}
}
