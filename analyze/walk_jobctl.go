package analyze

import (
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// jobsNamed resolves the arguments of wait, kill and disown to jobs of the
// current shell. all is true when an argument could be any job.
func (w *walker) jobsNamed(args []*syntax.Word) (named []*job, all bool, any bool) {
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
			if empty && (!hasQuotes(a) || w.sh.d.emptyArgIgnored) {
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
			if w.sh.d.specsSignalGroup {
				// dash: kill %N signals the job's process group, which only
				// a job that made itself a group leader (setsid, GNU timeout
				// without --foreground) has, or a pipeline whose first
				// process did.
				js = slices.DeleteFunc(js, func(j *job) bool { return !j.setsid && !j.timeoutGroup && !j.leadsGroup })
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
func (w *walker) currentJob() []*job {
	for i := len(w.sh.jobs) - 1; i >= 0; i-- {
		j := w.sh.jobs[i]
		if !w.specSees(j) {
			continue
		}
		if !w.sh.d.currentSkipsDone || w.running(j) || i == 0 {
			return []*job{j}
		}
	}
	return nil
}

// argText is an argument of kill, wait or disown as the builtin sees it:
// the word without its quotes when it expands nothing, else "". The shell
// removes the quotes before the builtin runs, so `kill "%1"` names job 1
// as `kill %1` does, and kills nothing else (bash, zsh, dash and mksh).
func argText(a *syntax.Word) string { return value(a) }

func (w *walker) wait(args []*syntax.Word) {
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
		if o := wordLit(a); strings.HasPrefix(o, "-") && o != "--" && !w.sh.d.waitOptions {
			return // zsh, dash, mksh: `wait -n` is an error, and waits for nothing
		}
		if wordLit(a) == "-n" {
			nflag = true
		}
	}
	if !nflag && w.selfKilled(named, !any || all) {
		return
	}
	pending := w.pending()
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
		var reach []*job
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
		var bySpec []*job // named by a job spec (%1), not a pid
		if w.sh.d.waitPidOnly {
			for _, a := range args {
				if strings.HasPrefix(argText(a), "%") {
					js, _, _ := w.jobsNamed([]*syntax.Word{a})
					bySpec = append(bySpec, js...)
				}
			}
		}
		for _, j := range named {
			if j.kind == jobPipeline && w.sh.d.waitPidOnly && !slices.Contains(bySpec, j) {
				continue // only its last process is waited for
			}
			if !j.disowned && j.kind != jobForked && w.sh.owns(j) {
				w.waitedFor(j) // only a child of this shell can be waited for
			}
		}
	}
}

// endedInTable reports whether one of the shell's own jobs was killed and
// is still in its table, not reaped yet (see running).
func (w *walker) endedInTable() bool {
	for _, j := range w.sh.own() {
		if j.killed && !j.disowned && !j.waited && w.running(j) {
			return true
		}
	}
	return false
}

// waitedFor records that the shell waits for j: for sure, or, when the
// wait runs only if an earlier command succeeds (or fails), maybe.
func (w *walker) waitedFor(j *job) {
	if j.subshellGone || slices.Contains(w.apart, j) {
		return // the subshell is dead; its last command runs on unwaited
	}
	if !w.sureFor(j) {
		j.condEnd = true
		return
	}
	j.waited = true
	if o := w.job; o != nil && w.inJobShell(o) {
		o.innerWaited = append(o.innerWaited, j)
	}
	// The shell now lasts as long as the job does.
	if j.quick {
		w.bounded += j.dur
	} else {
		w.slow++
	}
}

// pending returns the jobs of the current shell that wait can still reach.
func (w *walker) pending() []*job {
	var js []*job
	for _, j := range w.sh.own() {
		if !j.resolved() && !j.disowned && j.kind != jobForked {
			js = append(js, j)
		}
	}
	return js
}

func (w *walker) disown(args []*syntax.Word, c call) {
	var js []*job
	hOnly, bad := false, false
	for i, a := range args {
		o := wordLit(a)
		if len(o) < 2 || o[0] != '-' {
			continue
		}
		if strings.Trim(o[1:], w.sh.d.disownOptions) != "" {
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
		if o := wordLit(a); len(o) > 1 && o[0] == '-' {
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
	var long []*job
	for _, j := range js {
		if !j.resolved() && !j.disowned {
			j.disowned = true
			if !j.quick {
				long = append(long, j) // a job that ends at once leaves nothing to outlive the shell
			}
		}
	}
	if len(long) > 0 {
		w.mark(mark{rule: "SG2004", start: c.start, end: c.end, jobs: long})
	}
}

// trap remembers EXIT traps: their kill and wait commands run when the
// shell ends; and traps on the signals a kill sends, which run when a kill
// reaches the job this shell runs (see killed).
func (w *walker) trap(args []*syntax.Word) {
	if len(args) == 0 || wordLit(args[0]) == "--" {
		if len(args) > 0 {
			w.trap(args[1:])
		}
		return
	}
	sigs := w.sh.d.trapSets(args[1:])
	if len(args) == 1 {
		sigs = args // `trap EXIT`: a lone signal is reset
	}
	action, _, single := unquote(args[0], false)
	if single && len(action) > 1 && action[0] == '-' {
		return // trap -p, trap -l: they list
	}
	exit := false
	var set sigSet // the signals of sigSet this trap sets or resets
	for _, a := range sigs {
		switch strings.ToUpper(wordLit(a)) {
		case "EXIT", "0", "SIGEXIT":
			exit = true
		case "":
		default:
			// trap '' SIG ignores it from now on; any other action or
			// a reset gives the jobs started after the default again.
			if b := sigBit(wordLit(a)); b != 0 && w.cond == 0 {
				set |= b
				if len(args) > 1 && single && action == "" {
					w.sh.ignored |= b
				} else {
					w.sh.ignored &^= b
				}
			}
		}
	}
	if set != 0 {
		w.sigTrap(args, set, single, single && (action == "-" || action == ""))
	}
	if !exit {
		return
	}
	if len(args) == 1 || single && (action == "-" || action == "") {
		// `trap - EXIT`, `trap '' EXIT`: no EXIT trap from now on.
		if w.cond == 0 {
			w.sh.traps = w.sh.traps[:0]
		}
		return
	}
	code, offs, ok := literalWithParams(args[0])
	if !ok {
		return
	}
	if w.cond == 0 {
		w.sh.traps = w.sh.traps[:0] // a new EXIT trap replaces the old one
	}
	w.sh.traps = append(w.sh.traps, w.trapBody(args[0], code, offs, single))
}

// trapBody is the action word a of a trap, read as the literal code with
// its offsets; single: in single quotes, its $! expanded when it runs, else
// expanded now (see trapVars).
func (w *walker) trapBody(a *syntax.Word, code string, offs []int, single bool) trapBody {
	t := trapBody{code: code, offs: w.mapOffs(offs), set: !single, last: w.sh.last}
	if !single {
		t.vars = w.trapVars(a)
	}
	return t
}

// trapRuns reports whether `trap ARGS` sets a command to run (not a
// listing, a reset to the default, or an empty action, which ignores).
func trapRuns(args []*syntax.Word, d *dialect) bool {
	if len(args) > 0 && wordLit(args[0]) == "--" {
		args = args[1:]
	}
	if len(args) < 2 || len(d.trapSets(args[1:])) == 0 {
		return false
	}
	action, _, single := unquote(args[0], false)
	return !single || action != "" && action[0] != '-'
}

// sigTrap records a trap on the signals set (reset: it ignores them or
// gives them the default action) in place of what was set on them before;
// single: the action is a literal, its $! expanded when it runs.
func (w *walker) sigTrap(args []*syntax.Word, set sigSet, single, reset bool) {
	sh := w.sh
	sh.sigTraps = slices.DeleteFunc(sh.sigTraps, func(t sigTrap) bool {
		t.sigs &^= set
		return t.sigs == 0
	})
	for i := range sh.sigTraps {
		sh.sigTraps[i].sigs &^= set
	}
	if len(args) == 1 || reset {
		return
	}
	if code, offs, ok := literalWithParams(args[0]); ok {
		sh.sigTraps = append(sh.sigTraps, sigTrap{sigs: set, trapBody: w.trapBody(args[0], code, offs, single)})
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

// jobSpec resolves a job spec (%%, %-, %N, %name, %?name) to the jobs of the
// current shell it names.
func (w *walker) jobSpec(lit string) (named []*job) {
	switch {
	case lit == "%%" || lit == "%+" || lit == "%":
		// The current job: the last one started that is still
		// running (a job that ended at once is gone from the table
		// by the time a later command looks). Job specs name the
		// shell's own jobs; a subshell inherits $! but starts with an
		// empty job table.
		for i := len(w.sh.jobs) - 1; i >= 0; i-- {
			j := w.sh.jobs[i]
			if !w.specSees(j) {
				continue
			}
			if !j.quick || i == 0 {
				named = append(named, j)
				break
			}
			if !w.sh.d.currentSkipsDone {
				break // zsh, mksh: %% is the finished job, and kill fails
			}
		}
	case lit == "%-":
		// The previous job: the one started before the current one. With
		// a single job, bash takes %- for it.
		var live []*job
		for i := len(w.sh.jobs) - 1; i >= 0 && len(live) < 2; i-- {
			if j := w.sh.jobs[i]; w.specSees(j) {
				live = append(live, j)
			}
		}
		switch {
		case len(live) == 2:
			named = append(named, live[1])
		case len(live) == 1 && w.sh.d.prevIsCurrentAlone:
			named = append(named, live[0])
		}
	case strings.HasPrefix(lit, "%") && isDigits(lit[1:]):
		n := 0
		for _, c := range lit[1:] {
			n = n*10 + int(c-'0')
		}
		for _, j := range w.sh.jobs {
			if j.num == n && w.inTable(j) {
				named = append(named, j)
				break
			}
		}
	case strings.HasPrefix(lit, "%"):
		// bash, dash and mksh refuse the spec when more than one job
		// matches; zsh takes the one of the highest number.
		match := w.specMatches(lit)
		if len(match) > 1 && w.sh.d.specPicksHighest {
			match = []*job{slices.MaxFunc(match, func(a, b *job) int { return a.num - b.num })}
		}
		if len(match) == 1 {
			named = append(named, match[0])
		}
	}
	return named
}

// specMatches are the jobs in the table that the name spec lit matches:
// %name the jobs whose command starts with name, %?name those whose
// command contains it.
func (w *walker) specMatches(lit string) (match []*job) {
	for _, j := range w.sh.jobs {
		if !w.inTable(j) {
			continue
		}
		t := j.text()
		if name, _, _ := strings.Cut(t, " "); w.sh.d.jobTextEscaped && !strings.Contains(name, "/") {
			t = `\` + t
		}
		if q, ok := strings.CutPrefix(lit[1:], "?"); ok && strings.Contains(t, q) || !ok && strings.HasPrefix(t, lit[1:]) {
			match = append(match, j)
		}
	}
	return match
}

// nextJobNum is the number the shell gives its next job: the lowest that
// no job in its table and no compound it is running holds, or in bash one
// above the highest in the table.
func (w *walker) nextJobNum() int {
	sh := w.sh
	if len(sh.jobs) >= maxExactJobs {
		return sh.maxNum + 1
	}
	if sh.d.jobNumAboveHighest {
		n := 0
		for _, j := range sh.jobs {
			if j.num > n && w.inTable(j) {
				n = j.num
			}
		}
		return n + 1
	}
	for n := 1; ; n++ {
		if n != sh.held && !slices.ContainsFunc(sh.jobs, func(j *job) bool { return j.num == n && w.inTable(j) }) {
			return n
		}
	}
}

// maxExactJobs bounds the job tables that nextJobNum searches: past it a
// new job gets a number above any given before, which keeps the walk of a
// generated script with thousands of jobs linear. No command line names a
// job that far in by its number.
const maxExactJobs = 64

// reapMargin is how long past a job's end the shell is taken to have
// reaped it, when only sleeps ran since.
const reapMargin = 50 * time.Millisecond

// inTable reports whether j still holds its place in the shell's job
// table. disown takes a job out, and so does the shell reaping it: for
// sure once a wait waited for it, or once it ended (a quick job, a killed
// one) and the shell then ran a foreground program or slept past that
// end. Its number then goes to the next job, and %name, %% and %- no
// longer match it: under bash, zsh and mksh, `sleep 0.1 & wait; server &
// kill %1`, `true & sleep 0.2; server & kill %1` and `sleep 0.1 & sleep
// 0.3; server & kill %sleep` all end the server. A job that ended just
// before the next one starts may or may not be reaped yet: it stays.
func (w *walker) inTable(j *job) bool {
	if w.sh.d.doneJobsStay {
		return !j.disowned && !j.reported
	}
	return w.running(j)
}

// running reports whether j may still be running, or ended too recently
// for the shell to have reaped it (see inTable).
func (w *walker) running(j *job) bool {
	switch {
	case j.disowned || j.waited:
		return false
	case j.killed:
		return w.slow == j.endSlow && w.bounded-j.endBounded < reapMargin
	case j.coproc && j.quick:
		// mksh's `cat |&`: the filter reads the shell's end of the pipe,
		// which stays open until the shell ends (`cat |& read -p x;
		// server & kill %2` stops the server)
		return true
	case j.quick:
		return !w.endedAlone(j)
	}
	return true
}

// endedAlone reports whether the timed job j has ended by itself by now
// (and been reaped): the shell has slept past the job's literal durations,
// or, for a job of none, run a command that may take a while since.
func (w *walker) endedAlone(j *job) bool {
	return j.timed && (j.dur == 0 && w.slow > j.startSlow || w.bounded-j.startBounded >= j.dur+reapMargin)
}

// specSees reports whether the job specs %% and %- see j (see
// dialect.specsKeepReaped): a job waited for is gone from them in every
// shell (mksh: `a & b & wait %2; kill %-` finds no previous job).
func (w *walker) specSees(j *job) bool {
	return w.inTable(j) || w.sh.d.specsKeepReaped && !j.disowned && !j.waited
}

// listJobs is the jobs builtin run by the shell itself: where ended jobs
// stay in the table (dialect.doneJobsStay), it reports those that ended
// and takes them out.
func (w *walker) listJobs() {
	if !w.sh.d.doneJobsStay || w.cond > 0 || w.branching > 0 {
		return
	}
	for _, j := range w.sh.jobs {
		if j.waited || !w.running(j) {
			j.reported = true
		}
	}
}
