package analyze

import (
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// call is a simple command the shell runs in the foreground, seen through
// its wrappers. Only programs a rule looks at by name are kept.
type call struct {
	start, end int // outer offsets of the whole command
	res        resolved
	async      bool // part of a background job
}

// readsQuickWorkers reports whether r is a filter (cat, grep, sort…)
// whose only operands are `<(…)` whose pipes close at once: it reads them
// to their end, and so ends at once too (`cat <(echo x)`).
// Only the pipes of its own operands count: a worker nested inside one of
// them writes into a pipe of its own (`cat <(: <(server))`).
func readsQuickWorkers(r resolved, started []*job) bool {
	if !isFilter(r) || r.wrapped {
		return false
	}
	var read []syntax.Pos
	for _, a := range r.args {
		if strings.HasPrefix(wordLit(a), "-") {
			continue
		}
		if len(a.Parts) != 1 {
			return false
		}
		ps, ok := a.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn {
			return false
		}
		read = append(read, ps.OpPos)
	}
	for _, j := range started {
		if j.worker && !j.pipeBrief && slices.Contains(read, j.stmt.Position) {
			return false // its pipe stays open a while: the filter reads on
		}
	}
	return len(read) > 0
}

// call walks a simple command. env is the shell's table before the
// command's redirections (substitutions in the words see it), inner after.
func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr, env, inner fdTable) resolved {
	runnerCmd := w.runnerCmd
	w.runnerCmd = false
	if len(w.src.bad) > 0 && w.callBadSubst(s, ce) {
		// dash: kill "${pids[@]}" says "Bad substitution"; zsh's
		// "bad substitution" ends it without its EXIT traps
		if w.fatal() {
			w.sh.skipTraps = w.sh.d.nounsetSkipsTraps
		}
		return resolved{}
	}
	if len(ce.Assigns) > 0 && w.callsFunc(w.p.resolveCall(ce)) {
		defer w.restoreLocals(w.callAssigns(ce))
	}
	for _, a := range ce.Assigns {
		w.assign(a, env)
	}
	njobs := len(w.p.jobs)
	w.words(ce.Args, env)
	for _, d := range declArgs(ce) {
		w.p.sawAssign(d.name)
	}
	if len(w.calling) > 0 {
		w.declaredValues(ce) // dash: local pid=$!
	}
	r := w.p.resolveCall(ce)
	if how := w.missingCommand(ce, r); how != present {
		w.missingRuns(r, how) // dash: source: not found
		return resolved{}
	}
	if len(ce.Args) > 0 && (len(r.all) == 0 || !detaches(r) && (r.kind&kQuick == 0 || r.wrapped && r.forkedBefore)) && r.name != "wait" && !w.runsCode(r, s) && !(r.exec && len(r.all) == 0 && !w.execs(ce)) && (r.wrapped || w.funcs[r.name] == nil) && !catsDoc(r, s) && !readsQuickWorkers(r, w.p.jobs[njobs:]) {
		// (wait lasts as long as the jobs it waits for: see waitedFor; a
		// shell given its code as a literal, or a function, as long as
		// that code; exec without a command only redirects.)
		d, ok := r.bound()
		w.noteRun(s)
		w.cutCandidate(s, r, inner, d, ok) // (see walk_timeoutcut.go)
		if ok {
			w.bounded += d
		} else {
			w.slow++
		}
		if !ok || d >= briefJob {
			w.fgLong(env, inner, d, ok, runnerCmd)
		}
		w.countTail(s, d, ok)
		w.workerCall(s, r, inner)
	}
	c := call{
		start: w.src.outer(int(s.Pos().Offset())),
		end:   w.src.outer(int(s.End().Offset())),
		res:   r,
		async: w.sh.async,
	}
	if len(r.all) == 0 {
		return r
	}
	if !c.async && (r.kind&kServer != 0 || w.p.cfg.servers[r.name]) {
		w.p.calls = append(w.p.calls, c) // what SG3001 looks at
	}

	if !r.fork && r.setsid && !r.setsidWaits && !r.forkedBefore && w.leads(s, r) {
		// The shell's own process, a group leader, execs setsid, which
		// then cannot make a session of itself: it forks and returns.
		r.fork = true
	}
	if r.fork {
		// setsid -f forks and returns at once: the forked process is a job
		// the shell has no handle on.
		j := w.forkedJob(s, c, job{fds: inner, setsid: true, nohup: r.nohup, prog: r.all})
		d, bounded := r.bound()
		j.timed = r.kind&kQuick != 0 || bounded
		j.quick = r.kind&kQuick != 0 || bounded && d < briefJob
		j.dur = d
	}
	if how := daemonizes(r); how != "" {
		// (SG2008 reports it unless it is stopped: see daemons.go)
		w.daemonWritesPid(w.forkedJob(s, c, job{fds: daemonFds(r, inner), daemon: how, prog: r.all}), r)
	}
	w.stopDaemons(r)
	if r.setsid && !r.fork && w.job == nil && !w.sh.async {
		w.mark(mark{rule: "SG3002", start: c.start, end: c.end})
	}

	if r.name != "echo" && r.name != "printf" {
		if name, truncates := w.stdoutTo(s.Redirs, ""); truncates && (runsLiteral(r) || w.callsFunc(r)) {
			w.openPidFile(name) // sh -c '… & echo $!' > run.pid
		} else if len(w.p.pidFiles) > 0 {
			w.forgetWrites(s)
		}
	}
	if w.callsFunc(r) {
		w.saving(s.Redirs, env, inner, func() { w.callFunc(r.name, r.args, inner) })
		return r
	}
	if w.timeoutFiresInPlace(s, r) {
		w.timeoutKills(w.sh.jobs, r.timeoutSig)
	}
	switch r.name {
	case "echo", "printf", "print":
		if r.name == "print" && !w.sh.d.printBuiltin {
			// bash, dash: no such command; it prints nothing, and
			// `print $! > app.pid` leaves the file empty
			r.args = nil
		} else if inner[1] == tBlock && refersToLastPid(ce) {
			w.printed = append(w.printed, w.sh.lasts()...)
		}
		w.writePids(s, r, inner)
	case "wait":
		w.wait(r.args, s)
	case "tail":
		w.tailPidWaits(s, r, c.start, c.end) // tail -f log --pid=$P
	case "kill":
		if w.killProgram(r) {
			// procps kill signals its arguments in order and stops at
			// the first it cannot parse, a job spec: `env kill %1`,
			// `/bin/kill %1 $P` end nothing.
			args := r.args
			if i := slices.IndexFunc(args, func(a *syntax.Word) bool { return strings.HasPrefix(argText(a), "%") }); i >= 0 {
				args = args[:i]
			}
			w.kill(args)
			break
		}
		w.kill(r.args)
	case "pkill", "killall":
		w.killByName(r)
	case "fuser", "kill-port", "killport", "npx", "pnpx", "bunx":
		if sig, ok := holderKill(r); ok {
			w.killHolders(sig)
		}
	case "jobs":
		w.listJobs()
	case "disown":
		w.disown(r.args, c) // (dash, mksh: see missingCommand)
	case "fg", "bg":
		m := mark{rule: "SG2007", start: c.start, end: c.end, what: r.name}
		named, _, any := w.jobsNamed(r.args)
		m.jobs = named
		if !any && w.sh.last != nil {
			m.jobs = []*job{w.sh.last} // the current job
		}
		if r.name == "fg" && w.sh.monitor {
			// With job control on, fg brings the job to the foreground and
			// waits for it, as wait would.
			for _, j := range m.jobs {
				if !j.disowned && j.kind != jobForked {
					w.waitedFor(j)
				}
			}
		}
		w.mark(m)
	case "unset":
		w.unset(r.args)
	case "autoload", "add-zsh-hook":
		w.addZshHook(r.name, r.args)
	case "unfunction":
		if w.sh.d.unfunction {
			w.unsetFuncs(r.args, true) // zsh: unset -f
		}
	case "export", "readonly":
		if w.sh.d.exportFails(r.args) && !r.wrapped && wordLit(r.head) == r.name {
			w.fatal() // dash: export -f f
		}
	case "set":
		if w.sh.d.setFails(r.args) && !r.wrapped && wordLit(r.head) == "set" {
			// dash: set -o pipefail; zsh: set -m, set -b, which ends it
			// without its EXIT traps
			if w.fatal() {
				w.sh.skipTraps = w.sh.d.nounsetSkipsTraps
			}
			break
		}
		w.setArgs(r.args)
		if on, off := setsNounset(r.args); on && w.surelyRuns() {
			w.sh.nounset = true
		} else if off {
			w.sh.nounset = false
		}
		if on, off := setsOption(r.args, 'e', "errexit"); on && w.surelyRuns() {
			w.sh.errexit = true
		} else if off {
			w.sh.errexit = false
		}
		if on, off := setsOption(r.args, 0, "pipefail"); on && w.surelyRuns() {
			w.sh.pipefail = true
		} else if off {
			w.sh.pipefail = false
		}
		// set -m or -o monitor turns job control on; set +m, +o monitor
		// (quieting job reports before a kill) turns it off.
		if on, off := setsOption(r.args, 'm', "monitor"); on {
			if w.sh.d.monitorExits {
				if w.fatal() {
					// zsh without its EXIT traps, as on its other
					// fatal errors: `trap 'kill $P' EXIT; set -o
					// monitor` leaves the server
					w.sh.skipTraps = w.sh.d.nounsetSkipsTraps
				}
				break
			}
			w.mark(mark{rule: "SG2007", start: c.start, end: c.end, what: "set -m", sh: w.sh, from: len(w.sh.jobs)})
			w.sh.monitor = !w.sh.d.monitorNeedsTty
		} else if off {
			w.sh.monitor = false
		}
	case "shift":
		w.shiftArgs(r.args)
	case "setopt", "unsetopt":
		w.setopt(r.args, r.name == "unsetopt")
	case "emulate":
		w.emulate(r.args)
	case "trap":
		if w.job != nil && w.job.sh == w.sh && trapRuns(r.args, w.sh.d) {
			w.job.trap = true
		}
		w.trap(r.args)
	case "alias":
		for _, a := range r.args {
			if name, _, ok := strings.Cut(wordLit(a), "="); ok {
				w.p.define(name)
			}
		}
		w.alias(s, r.args)
	case "unalias":
		w.unalias(r.args)
	case "shopt":
		w.shopt(s, r.args)
	case "eval":
		w.nestedEval(r.args, inner)
	case "source", ".":
		// A script the command line wrote runs in the current shell.
		if len(r.args) > 0 && w.depth < maxNested {
			if sc := w.p.writtenScript(value(r.args[0])); sc != nil {
				w.inBody(". script", func() { w.nestedCode(sc.code, sc.offs, sc.quote, w.sh.d, inner, 0xff) })
			}
		}
	default:
		if d := dialectOfProgram(r.name); d != nil {
			n, slow, bounded := len(w.p.jobs), w.slow, w.bounded
			cut := w.watchTimeoutCut(r)
			w.nestedShell(r, d, inner, s)
			w.starting = nestedStart{} // (a -c string not walked leaves it)
			w.forkKilled()             // sh -c 'kill $PPID' (see walk_ppidkill.go)
			if w.timesOut(r, slow, bounded) {
				w.timeoutCuts(w.p.jobs[n:], r)
				if !r.timeoutFg {
					w.timeoutKills(w.p.jobs[n:], r.timeoutSig)
				}
				w.timeoutLeaves(cut, c.start, c.end)
				w.timeoutReturns(cut, slow, bounded)
			}
		} else if w.runWrittenFile(s, r, inner) {
			// ./run.sh, a script the command line wrote: walked as such
		} else if r.name == "ssh" {
			w.remoteShell(r, inner)
		} else if r.name == "script" {
			w.terminalShell(r, inner)
		} else {
			for _, args := range runCommands(r) {
				w.runnerCmd = true
				w.call(s, &syntax.CallExpr{Args: args}, env, inner)
				if in := w.stdinFile(s); in != nil && r.name == "xargs" && len(args) > 0 && args[0].Lit() == "kill" {
					w.kill(append(slices.Clip(args[1:]), in)) // xargs kill < run.pid: kill $(< run.pid)
				}
			}
		}
	}
	return r
}

// forkedJob records a process that the command s forks and leaves
// behind (setsid -f, a daemon), from the fields of j: a job the shell has
// no handle on.
func (w *walker) forkedJob(s *syntax.Stmt, c call, j job) *job {
	j.stmt, j.src, j.kind, j.inJob = s, w.src, jobForked, w.job != nil
	p := w.p.newJob(j)
	p.start, p.end = c.start, c.end
	p.inNested, p.remote = w.src.offs != nil, w.remote > 0
	p.scope, p.region = w.scope(), w.exitRegion() // (as addJob)
	w.p.jobs = append(w.p.jobs, p)
	if w.sh.kind == shSubshell {
		w.sh.jobs = append(w.sh.jobs, p)
	}
	return p
}

// timesOut reports whether the timeout a shell runs under (`timeout 5 sh
// -c '…'`) fires: the commands walked in it since the counts slow and
// bounded ran longer than its literal limit, or for a time nobody knows.
func (w *walker) timesOut(r resolved, slow int, bounded time.Duration) bool {
	return r.timeout && r.limit > 0 && (w.slow > slow || w.bounded-bounded >= r.limit)
}

// timeoutFiresInPlace reports whether s is a timeout that the shell execs
// in place of itself while it leads its process group, and whose command
// outlasts it for sure (`server & timeout 5 sleep 60` as the last command
// of zsh -c). timeout then finds itself already leading a group, the
// shell's, and its signal at the limit reaches every job the shell
// started (checked under zsh and bash, whose earlier `sleep &` job dies
// at the limit). Run in the caller's group, or not exec'd, timeout makes
// a group of its own and the jobs run on.
func (w *walker) timeoutFiresInPlace(s *syntax.Stmt, r resolved) bool {
	if !r.timeout || r.timeoutFg || r.limit == 0 {
		return false
	}
	d, ok := sleepFor(r.args)
	unbounded := r
	unbounded.timeout = false // a server or watcher, as it would run without timeout
	outlasts := r.name == "sleep" && ok && d >= r.limit || endlessKind(unbounded) != ""
	return outlasts && w.leads(s, r)
}

// timeoutKills ends the jobs a command started when its timeout fires.
// GNU timeout runs the command in a process group of its own and, when
// the time is up, signals that whole group: the command's background jobs
// die with it (`timeout 60 sh -c 'server & exec tests'`), except those
// that left the group with setsid or ignore the signal (as background
// jobs do SIGINT and SIGQUIT: see jobsIgnore).
func (w *walker) timeoutKills(jobs []*job, sig string) {
	if !terminates(sig) || w.jobsIgnore(sig) {
		return
	}
	for _, j := range jobs {
		if !j.setsid && !j.ignores(sig) {
			w.end(j)
		}
	}
}

// killProgram reports whether the kill r runs is the program, not the
// shell's builtin: named by a path, run by a program wrapper, or by zsh's
// command.
func (w *walker) killProgram(r resolved) bool {
	return strings.Contains(wordLit(r.head), "/") || r.viaProgram || r.viaCommand && w.sh.d.commandSkipsBuiltins
}

// timeoutCuts undoes the waits of the shell a timeout ends (`timeout 60
// sh -c 'server & wait'`) for the jobs its signal does not reach: the wait
// ended with the shell, not with them. A job that left the group (setsid),
// or ignores the signal (background jobs SIGINT and SIGQUIT), runs on, and
// so does every job under --foreground, whose signal (and -k's KILL) goes
// to the shell alone (coreutils timeout.c, cleanup: send_sig(0, sig) only
// when !foreground).
func (w *walker) timeoutCuts(jobs []*job, r resolved) {
	sig := r.timeoutSig
	for _, j := range jobs {
		if j.waited && !j.quick && (r.timeoutFg || j.setsid || !terminates(sig) || w.jobsIgnore(sig) || j.ignores(sig)) {
			j.waited = false
		}
	}
}

// fgLong notes a program that may take a while run in the foreground of
// a job's body: the job's subshell waits for it, and a kill of the
// subshell leaves it running (see killed). In a subshell of the body
// (`( (a; server) ; b ) &`) what runs on is that subshell, which holds
// its own table env as well. A pause after a program that runs longer, or
// after a wait for one, is not where a kill finds the job (see
// job.pauses); the command a program runs as its child (runnerCmd: flock,
// xargs, find -exec, time) runs during that program, not after it:
// `flock app.lock sleep 30 & … kill $!` leaves the sleep.
func (w *walker) fgLong(env, inner fdTable, d time.Duration, bounded, runnerCmd bool) {
	j := w.job
	if j == nil {
		return
	}
	if !runnerCmd && j.pauses(d, bounded) {
		return
	}
	j.fgLong++
	j.fgSlow, j.fgDur = !bounded, d
	j.fgFds, j.fgOwn = inner, inner
	if !w.inJobShell(j) && !w.sh.execsElem {
		j.fgFds = inner.union(env)
	}
}

// inJobShell reports whether the walk is in the shell that is j's own
// process: the subshell of a compound job, or the shell a job runs
// (shell.process).
func (w *walker) inJobShell(j *job) bool { return w.sh == j.sh || w.sh.process == j }
