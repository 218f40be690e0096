package walk

import (
	"slices"
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// call is a simple command the shell runs in the foreground, seen through
// its wrappers. Only programs a rule looks at by name are kept.
type call struct {
	Start, End int // outer offsets of the whole command
	Res        knowledge.Resolved
	Async      bool // part of a background job
}

// readsQuickWorkers reports whether r is a filter (cat, grep, sort…)
// whose only operands are `<(…)` whose pipes close at once: it reads them
// to their end, and so ends at once too (`cat <(echo x)`).
// Only the pipes of its own operands count: a worker nested inside one of
// them writes into a pipe of its own (`cat <(: <(server))`).
func readsQuickWorkers(r knowledge.Resolved, started []*Job) bool {
	if !knowledge.IsFilter(r) || r.Wrapped {
		return false
	}
	var read []syntax.Pos
	for _, a := range r.Args {
		if strings.HasPrefix(knowledge.WordLit(a), "-") {
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
		if j.worker && !j.pipeBrief && slices.Contains(read, j.Stmt.Position) {
			return false // its pipe stays open a while: the filter reads on
		}
	}
	return len(read) > 0
}

// call walks a simple command. env is the shell's table before the
// command's redirections (substitutions in the words see it), inner after.
func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr, env, inner fdtable.Table) knowledge.Resolved {
	runnerCmd := w.runnerCmd
	w.runnerCmd = false
	if len(w.src.Bad) > 0 && w.callBadSubst(s, ce) {
		// dash: kill "${pids[@]}" says "Bad substitution"; zsh's
		// "bad substitution" ends it without its EXIT traps
		if w.fatal() {
			w.sh.skipTraps = w.sh.d.NounsetSkipsTraps
		}
		return knowledge.Resolved{}
	}
	if len(ce.Assigns) > 0 && w.callsFunc(w.p.resolveCall(ce)) {
		defer w.restoreLocals(w.callAssigns(ce))
	}
	for _, a := range ce.Assigns {
		w.assign(a, env)
	}
	njobs := len(w.p.Jobs)
	w.words(ce.Args, env)
	for _, d := range declArgs(ce) {
		w.p.sawAssign(d.name)
	}
	if len(w.fns.calling) > 0 {
		w.declaredValues(ce) // dash: local pid=$!
	}
	r := w.p.resolveCall(ce)
	if how := w.missingCommand(ce, r); how != dialect.Present {
		w.missingRuns(r, how) // dash: source: not found
		return knowledge.Resolved{}
	}
	if len(ce.Args) > 0 && (len(r.All) == 0 || !knowledge.Detaches(r) && (r.Kind&knowledge.KQuick == 0 || r.Wrapped && r.ForkedBefore)) && r.Name != "wait" && !w.runsCode(r, s) && !(r.Exec && len(r.All) == 0 && !w.execs(ce)) && (r.Wrapped || w.fns.funcs[r.Name] == nil) && !catsDoc(r, s) && !readsQuickWorkers(r, w.p.Jobs[njobs:]) {
		// (wait lasts as long as the jobs it waits for: see waitedFor; a
		// shell given its code as a literal, or a function, as long as
		// that code; exec without a command only redirects.)
		d, ok := r.Bound()
		w.noteRun(s)
		w.cutCandidate(s, r, inner, d, ok) // (see walk_timeoutcut.go)
		if ok {
			w.bounded += d
		} else {
			w.slow++
		}
		if !ok || d >= knowledge.BriefJob {
			w.fgLong(env, inner, d, ok, runnerCmd)
		}
		w.countTail(s, d, ok)
		w.workerCall(s, r, inner)
	}
	c := call{
		Start: w.src.Outer(int(s.Pos().Offset())),
		End:   w.src.Outer(int(s.End().Offset())),
		Res:   r,
		Async: w.sh.async,
	}
	if len(r.All) == 0 {
		return r
	}
	if !c.Async && (r.Kind&knowledge.KServer != 0 || w.p.Cfg.Servers[r.Name]) {
		w.p.Calls = append(w.p.Calls, c) // what SG3001 looks at
	}

	if !r.Fork && r.Setsid && !r.SetsidWaits && !r.ForkedBefore && w.leads(s, r) {
		// The shell's own process, a group leader, execs setsid, which
		// then cannot make a session of itself: it forks and returns.
		r.Fork = true
	}
	if r.Fork {
		// Setsid -f forks and returns at once: the forked process is a job
		// the shell has no handle on.
		j := w.forkedJob(s, c, Job{Fds: inner, Setsid: true, Nohup: r.Nohup, Prog: r.All})
		d, bounded := r.Bound()
		j.timed = r.Kind&knowledge.KQuick != 0 || bounded
		j.Quick = r.Kind&knowledge.KQuick != 0 || bounded && d < knowledge.BriefJob
		j.dur = d
	}
	if how := knowledge.Daemonizes(r); how != "" {
		// (SG2008 reports it unless it is stopped: see daemons.go)
		w.daemonWritesPid(w.forkedJob(s, c, Job{Fds: daemonFds(r, inner), Daemon: how, Prog: r.All}), r)
	}
	w.stopDaemons(r)
	if r.Setsid && !r.Fork && w.job == nil && !w.sh.async {
		w.mark(mark{Rule: "SG3002", Start: c.Start, End: c.End})
	}

	if r.Name != "echo" && r.Name != "printf" {
		if name, truncates := w.stdoutTo(s.Redirs, ""); truncates && (runsLiteral(r) || w.callsFunc(r)) {
			w.openPidFile(name) // sh -c '… & echo $!' > run.pid
		} else if len(w.p.pidFiles) > 0 {
			w.forgetWrites(s)
		}
	}
	if w.callsFunc(r) {
		w.saving(s.Redirs, env, inner, func() { w.callFunc(r.Name, r.Args, inner) })
		return r
	}
	if w.timeoutFiresInPlace(s, r) {
		w.timeoutKills(w.sh.jobs, r.TimeoutSig)
	}
	switch r.Name {
	case "echo", "printf", "print":
		if r.Name == "print" && !w.sh.d.PrintBuiltin {
			// bash, dash: no such command; it prints nothing, and
			// `print $! > app.pid` leaves the file empty
			r.Args = nil
		} else if inner[1] == fdtable.TBlock && refersToLastPid(ce) {
			w.printed = append(w.printed, w.sh.lasts()...)
		}
		w.writePids(s, r, inner)
	case "wait":
		w.wait(r.Args, s)
	case "tail":
		w.tailPidWaits(s, r, c.Start, c.End) // tail -f log --pid=$P
	case "kill":
		if w.killProgram(r) {
			// procps kill signals its arguments in order and stops at
			// the first it cannot parse, a job spec: `env kill %1`,
			// `/bin/kill %1 $P` end nothing.
			args := r.Args
			if i := slices.IndexFunc(args, func(a *syntax.Word) bool { return strings.HasPrefix(argText(a), "%") }); i >= 0 {
				args = args[:i]
			}
			w.kill(args)
			break
		}
		w.kill(r.Args)
	case "pkill", "killall":
		w.killByName(r)
	case "fuser", "kill-port", "killport", "npx", "pnpx", "bunx":
		if sig, ok := holderKill(r); ok {
			w.killHolders(sig)
		}
	case "jobs":
		w.listJobs()
	case "disown":
		w.disown(r.Args, c) // (dash, mksh: see missingCommand)
	case "fg", "bg":
		m := mark{Rule: "SG2007", Start: c.Start, End: c.End, What: r.Name}
		named, _, any := w.jobsNamed(r.Args)
		m.Jobs = named
		if !any && w.sh.last != nil {
			m.Jobs = []*Job{w.sh.last} // the current job
		}
		if r.Name == "fg" && w.sh.monitor {
			// With job control on, fg brings the job to the foreground and
			// waits for it, as wait would.
			for _, j := range m.Jobs {
				if !j.disowned && j.Kind != jobForked {
					w.waitedFor(j)
				}
			}
		}
		w.mark(m)
	case "unset":
		w.unset(r.Args)
	case "autoload", "add-zsh-hook":
		w.addZshHook(r.Name, r.Args)
	case "unfunction":
		if w.sh.d.Unfunction {
			w.unsetFuncs(r.Args, true) // zsh: unset -f
		}
	case "export", "readonly":
		if w.sh.d.ExportFails(r.Args) && !r.Wrapped && knowledge.WordLit(r.Head) == r.Name {
			w.fatal() // dash: export -f f
		}
	case "set":
		if w.sh.d.SetFails(r.Args) && !r.Wrapped && knowledge.WordLit(r.Head) == "set" {
			// dash: set -o pipefail; zsh: set -m, set -b, which ends it
			// without its EXIT traps
			if w.fatal() {
				w.sh.skipTraps = w.sh.d.NounsetSkipsTraps
			}
			break
		}
		w.setArgs(r.Args)
		if on, off := setsNounset(r.Args); on && w.surelyRuns() {
			w.sh.nounset = true
		} else if off {
			w.sh.nounset = false
		}
		if on, off := setsOption(r.Args, 'e', "errexit"); on && w.surelyRuns() {
			w.sh.errexit = true
		} else if off {
			w.sh.errexit = false
		}
		if on, off := setsOption(r.Args, 0, "pipefail"); on && w.surelyRuns() {
			w.sh.pipefail = true
		} else if off {
			w.sh.pipefail = false
		}
		// set -m or -o monitor turns job control on; set +m, +o monitor
		// (quieting job reports before a kill) turns it off.
		if on, off := setsOption(r.Args, 'm', "monitor"); on {
			if w.sh.d.MonitorExits {
				if w.fatal() {
					// zsh without its EXIT traps, as on its other
					// fatal errors: `trap 'kill $P' EXIT; set -o
					// monitor` leaves the server
					w.sh.skipTraps = w.sh.d.NounsetSkipsTraps
				}
				break
			}
			w.mark(mark{Rule: "SG2007", Start: c.Start, End: c.End, What: "set -m", sh: w.sh, from: len(w.sh.jobs)})
			w.sh.monitor = !w.sh.d.MonitorNeedsTty
		} else if off {
			w.sh.monitor = false
		}
	case "shift":
		w.shiftArgs(r.Args)
	case "setopt", "unsetopt":
		w.setopt(r.Args, r.Name == "unsetopt")
	case "emulate":
		w.emulate(r.Args)
	case "trap":
		if w.job != nil && w.job.sh == w.sh && trapRuns(r.Args, w.sh.d) {
			w.job.trap = true
		}
		w.trap(r.Args)
	case "alias":
		for _, a := range r.Args {
			if name, _, ok := strings.Cut(knowledge.WordLit(a), "="); ok {
				w.p.define(name)
			}
		}
		w.alias(s, r.Args)
	case "unalias":
		w.unalias(r.Args)
	case "shopt":
		w.shopt(s, r.Args)
	case "eval":
		w.nestedEval(r.Args, inner)
	case "source", ".":
		// A script the command line wrote runs in the current shell.
		if len(r.Args) > 0 && w.nest.depth < maxNested {
			if sc := w.p.writtenScript(knowledge.Value(r.Args[0])); sc != nil {
				w.inBody(". script", func() { w.nestedCode(sc.code, sc.offs, sc.quote, w.sh.d, inner, 0xff) })
			}
		}
	default:
		if d := dialect.DialectOfProgram(r.Name); d != nil {
			n, slow, bounded := len(w.p.Jobs), w.slow, w.bounded
			cut := w.watchTimeoutCut(r)
			w.nestedShell(r, d, inner, s)
			w.nest.starting = nestedStart{} // (a -c string not walked leaves it)
			w.forkKilled()                  // sh -c 'kill $PPID' (see walk_ppidkill.go)
			if w.timesOut(r, slow, bounded) {
				w.timeoutCuts(w.p.Jobs[n:], r)
				if !r.TimeoutFg {
					w.timeoutKills(w.p.Jobs[n:], r.TimeoutSig)
				}
				w.timeoutLeaves(cut, c.Start, c.End)
				w.timeoutReturns(cut, slow, bounded)
			}
		} else if w.runWrittenFile(s, r, inner) {
			// ./run.sh, a script the command line wrote: walked as such
		} else if r.Name == "ssh" {
			w.remoteShell(r, inner)
		} else if r.Name == "script" {
			w.terminalShell(r, inner)
		} else {
			for _, args := range knowledge.RunCommands(r) {
				w.runnerCmd = true
				w.call(s, &syntax.CallExpr{Args: args}, env, inner)
				if in := w.stdinFile(s); in != nil && r.Name == "xargs" && len(args) > 0 && args[0].Lit() == "kill" {
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
func (w *walker) forkedJob(s *syntax.Stmt, c call, j Job) *Job {
	j.Stmt, j.Src, j.Kind, j.inJob = s, w.src, jobForked, w.job != nil
	p := w.p.newJob(j)
	p.Start, p.End = c.Start, c.End
	p.InNested, p.remote = w.src.Offs != nil, w.nest.remote > 0
	p.scope, p.region = w.scope(), w.exitRegion() // (as addJob)
	w.p.Jobs = append(w.p.Jobs, p)
	if w.sh.kind == shSubshell {
		w.sh.jobs = append(w.sh.jobs, p)
	}
	return p
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
func (w *walker) fgLong(env, inner fdtable.Table, d time.Duration, bounded, runnerCmd bool) {
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
		j.fgFds = inner.Union(env)
	}
}

// inJobShell reports whether the walk is in the shell that is j's own
// process: the subshell of a compound job, or the shell a job runs
// (shell.process).
func (w *walker) inJobShell(j *Job) bool { return w.sh == j.sh || w.sh.process == j }
