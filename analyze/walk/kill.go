package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// kill applies `kill ARGS` to the shell's jobs.
func (w *walker) kill(args []*syntax.Word) {
	sig, ops, list := dialect.KillArgs(args)
	if list || !terminates(sig) {
		return // kill -l, kill -0 (is it alive?), kill -STOP…
	}
	ops, groups := w.groupsLookedUp(ops) // -$(ps -o pgid= -p $PID | tr -d ' ')
	if w.killFails(args) {
		return
	}
	ops = w.parsedOperands(ops) // dash: `kill "$OLD" $PID` with OLD unset, or the lone - of an untrimmed group
	if w.killsItself(sig, ops) {
		defer w.diesOf(sig) // (after the jobs it signals first)
	}
	if t := w.selfTrap(sig, ops); t != nil {
		defer w.runSelfTrap(*t) // trap 'kill $P' TERM; …; kill $$ (see kill_selftrap.go)
	}
	w.noteForkKill(sig, ops)       // (kill $$) kills the script
	w.notePPIDKill(sig, ops)       // sh -c 'kill $PPID' too
	ops = w.noteSelfKill(sig, ops) // kill $$ in a watchdog: no job of the shell's (INT too)
	if w.jobsIgnore(sig) {
		w.killTrapped(sig, ops)
		return
	}
	if w.guardLifted(ops) {
		top := w.scope()
		w.condOut()
		defer func() { w.cond++; w.scopes = append(w.scopes, top) }()
	}
	w.kills.killSig = sig
	defer func() { w.kills.killSig = "" }()
	w.killLookedUp(groups, sig)
	if len(ops) == 0 {
		return
	}
	var rest []*syntax.Word
	for _, a := range ops {
		if knowledge.WordLit(a) == "0" || w.readsZero(a) {
			w.killAll(sig) // pid 0: the shell's process group
			return
		}
		if len(a.Parts) == 2 {
			if l, ok := a.Parts[0].(*syntax.Lit); ok && l.Value == "-" {
				if pe, ok := a.Parts[1].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "$" {
					// kill -- -$$: the group led by the shell. A caller
					// that starts the shell as a group leader (agent
					// tools, shexec) makes that the shell's whole group,
					// every job included; one that starts it in its own
					// group (a script's $(…), make) leaves none: "No such
					// process". Both checked under bash.
					if w.p.Cfg.Caller == dialect.CallerGroupLeader {
						w.killAll(sig)
						return
					}
					continue
				}
			}
		}
		rest = append(rest, a)
	}
	if w.sh.d.BangZero && w.sh.last == nil && slices.ContainsFunc(rest, isLastPid) {
		w.killAll(sig) // zsh: $! is 0 before the first job: the whole group
		return
	}
	for i, a := range rest {
		if w.selfOperand(a) {
			// kill $$, kill $(pgrep -f server): the shell signals itself
			// and dies there; the pids after its own are never
			// signalled (but see dialect.selfKillDeferred, and the kill
			// program of `pgrep -f server | xargs kill`, which signals
			// them all). $$ names no job.
			if !w.sh.d.SelfKillDeferred && !w.kills.killProg && !w.survives(sig) {
				rest = rest[:i]
			}
			break
		}
	}
	rest = slices.DeleteFunc(rest, isShellPid)
	rest = w.killGroups(rest, sig)
	rest = w.dropLeaderlessGroups(rest)
	rest = w.dropDeadPipeSpecs(rest)
	named, all, _ := w.jobsNamed(rest)
	if all {
		pipe := pipeFirst // $(jobs -p), a pid we did not see saved…
		if w.sh.d.JobsPLast {
			pipe = pipeLast
		}
		w.killEachJob(pipe)
		// and the jobs the arguments do name that are not this shell's
		// own: a pid file a pipeline's loop appended its jobs to
		// (`… | while read s; do server & echo $! >> pids; done`) may
		// hold older pids too, but it holds these.
		for _, j := range named {
			if !slices.Contains(w.sh.jobs, j) && !j.ignores(sig) {
				w.killed(j)
			}
		}
		return
	}
	for _, j := range named {
		if j.ignores(sig) {
			continue
		}
		if w.killLost(j, sig) {
			continue
		}
		if j.timeoutGroup {
			w.timeoutKilled(j, sig)
			continue
		}
		if j.relay != knowledge.RelayNone {
			w.relayKilled(j, sig)
			continue
		}
		w.killed(j)
	}
	// A job spec names every process of a pipeline job; $! only its last.
	// Under set -m it names the job's process group (see killGroup), as
	// -$! does.
	for _, a := range rest {
		if strings.HasPrefix(argText(a), "%") || w.sh.monitor && negatedPid(a) {
			js, _, _ := w.jobsNamed([]*syntax.Word{a})
			for _, j := range js {
				if w.killLost(j, sig) {
					continue // under set -m too: `set -m; server & kill %1`
				}
				if w.sh.monitor && !j.ignores(sig) {
					w.killGroup(j, false)
				} else if j.Kind == jobPipeline && j.pipeForks != (fdtable.Table{}) && w.sureFor(j) {
					j.Fds = j.pipeForks // what a function element runs goes on
				} else if j.Kind == jobPipeline && !j.pipeChildren {
					w.end(j) // (a last element's children run on: see killed)
				}
			}
		}
	}
}

// killFails reports whether the shell's kill refuses these arguments
// before it signals anything.
func (w *walker) killFails(args []*syntax.Word) bool {
	if w.sh.d.KillRefused(args) {
		return true // dash: kill -SIGTERM; dash, mksh: kill -n 9
	}
	// dash: `kill -TERM -- $!` fails ("Illegal number: -")
	return w.sh.d.KillSigNoDashDash && len(args) > 1 && knowledge.WordLit(args[1]) == "--" && isSignal(strings.TrimPrefix(knowledge.WordLit(args[0]), "-"))
}

// killLost reports whether a kill of the job j with sig, right after the
// job started, is lost (mksh: the signal can arrive before the job is set
// up). A job another shell started (in a $(…), a subshell, a nested sh -c)
// had the time that shell took to end and be reaped, as long as a program
// run takes: `x=$(server >/dev/null & echo $!); kill $x` was never lost in
// 70 runs under mksh, `server & kill $!` in half of them. So does a fork
// the shell waits for in between: `server & P=$!; true | true; kill $P`
// (or x=$(…), ( : )) lost it in 0 to 3 of 20 runs (under load), without
// it in 15 of 20. Measured again over 800 runs (p34): two $(…) and a
// pipeline in between lost it 3 times (0 to 2 per 200, the machine's
// load 4 to 26 on 2 CPUs), nothing in between 139 times in 200 unloaded
// and every time loaded: the walk takes a fork in between as giving the
// job its time, what mksh does almost always, and the kill right after
// the & as lost; the race itself stays.
func (w *walker) killLost(j *Job, sig string) bool {
	return w.sh.d.KillRaces && j.startSlow == w.slow && j.startBounded == w.bounded && j.startForks == w.forks && !uncatchable(sig) && w.sh.owns(j)
}

// dropDeadPipeSpecs drops the job specs that signal nothing in bash: a
// pipeline job whose first process has ended. Without job control bash
// signals a job's processes one by one, and its loop (jobs.c, kill_pid)
// stops at the first one that is gone, before it signals any: `( server
// >&2 & cd app ) 2>&1 | tee log & … kill %1` leaves tee and the server
// (checked under bash 5.2). The other shells signal the rest.
func (w *walker) dropDeadPipeSpecs(ops []*syntax.Word) []*syntax.Word {
	if !w.sh.d.SpecStopsAtDead {
		return ops
	}
	return slices.DeleteFunc(slices.Clone(ops), func(a *syntax.Word) bool {
		spec := argText(a)
		if !strings.HasPrefix(spec, "%") {
			return false
		}
		js := w.jobSpec(spec)
		return len(js) == 1 && js[0].Kind == jobPipeline && endsAtOnce(pipeElems(js[0].Stmt)[0])
	})
}

// killed marks a job as ended by a signal. Killing a compound job's
// subshell leaves its foreground child running, still holding whatever it
// holds, so only jobs that are one process end.
func (w *walker) killed(j *Job) {
	if slices.Contains(w.apart, j) {
		return // started by another branch of the if or case
	}
	switch {
	case (j.Kind == JobSimple || j.Kind == jobCoproc || j.Kind == jobForked) && !j.forks && !j.RunsChildren:
		w.end(j)
	case j.callsFunc && j.forks && w.sureFor(j) && !w.subshellDefers(j):
		// The function's subshell dies with the copies of the caller's
		// descriptors it saved; the command it was running goes on. A
		// body with only brief commands in its foreground (`spin() {
		// while :; do sleep 0.1; done; }`) leaves nothing of its own,
		// as a compound job's subshell does.
		switch {
		case j.fgLong == 0 && j.heldReads == 0:
			w.killSubshell(j)
		case j.fgLong > 0:
			// the program it ran in the foreground, as a compound
			// job's (see killSubshell): the server, not the pause
			// after it (see job.pauses)
			j.Fds = j.fgFds
		default:
			j.Fds = j.bodyFds
		}
	case j.Kind == jobPipeline && w.sureFor(j):
		// $! is the last element: it dies, and the elements before it
		// run on holding what they hold (until a write finds no reader).
		j.Fds = j.pipeRest
		if j.Fds == (fdtable.Table{}) && !j.pipeChildren {
			w.end(j)
		}
	case j.onlyReads && !w.subshellDefers(j):
		// `x=$(server 2>&1 &) & … kill $!`: the reader dies; the server
		// holds only the substitution's pipe.
		w.end(j)
	case (j.Kind == JobCompound || j.RunsChildren || j.Kind == jobCoproc && j.forks) && !j.SubshellGone && w.sureFor(j):
		// (A shell given a script that it does not end by exec'ing dies
		// as a subshell does, leaving what it runs; so does bash's
		// coproc of a { } body.)
		w.killSubshell(j)
	}
}

// end records that a signal ends j: for sure, or maybe, when the kill runs
// only if an earlier command succeeds (or fails).
func (w *walker) end(j *Job) {
	if slices.Contains(w.apart, j) {
		return // started by another branch of the if or case
	}
	if !w.sureFor(j) {
		j.CondEnd = true
		return
	}
	j.Killed = true
	j.endSlow, j.endBounded = w.slow, w.bounded
	if o := w.job; o != nil && o != j && w.inJobShell(o) {
		o.innerEnded = append(o.innerEnded, innerEnd{job: j, slow: w.slow - o.startSlow, bounded: w.bounded - o.startBounded, fgLong: o.fgLong})
		j.endedBy = o
	} else if w.job == nil {
		j.endedBy = nil // the script's own kill, not a watchdog's (see watchdogsLate)
	}
}

// pipeProcs says which processes of a pipeline job a signal to each job
// of the shell reaches.
type pipeProcs int

const (
	pipeFirst pipeProcs = iota // `kill $(jobs -p)`: jobs -p lists the first
	pipeLast                   // mksh's jobs -p lists the last, as $! is
	pipeEvery                  // `pkill -P $$`: every child of the shell
)

// killEachJob: the shell signals the process of each of its jobs by pid
// (`kill $(jobs -p)`, `pkill -P $$`), which reaches a setsid'd job as well
// but not what setsid -f forked away, nor, but by -P, a job disowned
// (`disown; kill $(jobs -p)` leaves the server in bash). Of a pipeline,
// the first process takes the rest with it if they read their input to
// the end (`server | tee log`; `a | sleep 60` leaves the sleep); the last
// leaves the rest running.
func (w *walker) killEachJob(pipe pipeProcs) {
	for _, j := range w.sh.jobs {
		switch {
		case j.disowned && pipe != pipeEvery:
			continue // out of the table: jobs -p no longer lists it
		case j.Kind == jobForked:
		case j.Kind == jobPipeline:
			switch {
			case pipe == pipeLast:
				w.killed(j)
			case pipe == pipeEvery || laterElemsRead(j.Stmt):
				w.end(j)
			}
		default:
			w.killed(j)
		}
	}
}

// laterElemsRead reports whether every element of the pipeline s after its
// first reads its input to the end (cat, grep, tee…) or ends at once by
// itself (`server | true`): when the first ends, they all have.
func laterElemsRead(s *syntax.Stmt) bool {
	elems := pipeElems(s)
	for _, e := range elems[1:] {
		if !stmtReadsToEnd(e) && !endsAtOnce(e) {
			return false
		}
	}
	return true
}

// pipeElems returns the elements of the pipeline s, in order (s itself
// when it is no pipeline).
func pipeElems(s *syntax.Stmt) []*syntax.Stmt {
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
		return []*syntax.Stmt{s}
	}
	return appendPipeElems(appendPipeElems(nil, b.X), b.Y)
}

func appendPipeElems(out []*syntax.Stmt, s *syntax.Stmt) []*syntax.Stmt {
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll || len(s.Redirs) > 0 {
		return append(out, s)
	}
	return appendPipeElems(appendPipeElems(out, b.X), b.Y)
}

// endsAtOnce reports whether the statement s finishes as soon as it
// starts: a quick builtin, or a subshell or group of such commands and
// background jobs (`( server >&2 & cd /tmp )`).
func endsAtOnce(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		r := knowledge.Resolve(c.Args)
		return len(r.All) > 0 && r.Kind&knowledge.KQuick != 0 && !r.Wrapped
	case *syntax.Subshell:
		return allEndAtOnce(c.Stmts)
	case *syntax.Block:
		return allEndAtOnce(c.Stmts)
	}
	return false
}

func allEndAtOnce(list []*syntax.Stmt) bool {
	for _, s := range list {
		if !s.Background && !endsAtOnce(s) {
			return false
		}
	}
	return true
}

// negatedPid reports whether a kill operand is -$pid: the process group
// of that pid (under set -m, a job's).
func negatedPid(a *syntax.Word) bool {
	l, ok := a.Parts[0].(*syntax.Lit)
	return ok && len(a.Parts) > 1 && strings.HasPrefix(l.Value, "-")
}

// isShellPid reports whether a word is $$ (or ${$}).
func isShellPid(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "$" && pe.Exp == nil && pe.Index == nil
}

// isLastPid reports whether a word is just $! (quoted or not).
func isLastPid(word *syntax.Word) bool {
	pe, ok := knowledge.SolePart(word).(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "!" && pe.Exp == nil
}
