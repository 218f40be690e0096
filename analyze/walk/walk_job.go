package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// startJob records a background statement and walks its body.
func (w *walker) startJob(s *syntax.Stmt, env fdtable.Table) *Job {
	start := env
	if s.Coprocess {
		start[0], start[1] = fdtable.TPipe, fdtable.TPipe // mksh's `cmd |&`: both ends are the shell's
	}
	j := w.p.newJob(Job{Stmt: s, Src: w.src, Fds: start.Apply(s.Redirs), inJob: w.job != nil, monitorGroup: w.sh.monitor})
	j.Start, j.End = w.src.Outer(int(s.Pos().Offset())), w.src.Outer(int(s.End().Offset()))
	j.InNested, j.remote, j.Depth = w.src.Offs != nil, w.nest.remote > 0, w.nest.depth
	j.TopLevel = w.job == nil && w.sh.kind == shTop && !j.InNested && w.p.isTop(s)
	j.AmpGt = !j.InNested && s.Background && w.p.ampGtAt(int(s.Semicolon.Offset()))
	j.tailsFor, j.tailsShell, _ = w.tailFollows(s) // (before it is $!: see walk_tailpid.go)

	saved, savedJob, slow, bounded, forks := w.sh, w.job, w.slow, w.bounded, w.forks
	j.parent = savedJob
	j.startSlow, j.startBounded = slow, bounded
	if saved.d.JobsKeepIgnored {
		j.ignored = saved.ignored
	}
	w.sh = w.newShell(shSubshell, true)
	w.inheritJobs(saved, dialect.FormJob)
	w.job, j.sh = j, w.sh
	// The job's subshell makes its redirections: a $( ) in a here-document
	// or a file name runs there, with the job's descriptors.
	savedConsumer := w.consumer
	w.consumer, _ = s.Cmd.(*syntax.CallExpr)
	w.words(redirWords(s.Redirs), env)
	if badDup(s.Redirs, saved.d) {
		// dash, mksh: the job's process fails at the redirection and
		// exits; nothing runs (see badDupEffect).
		j.Kind, j.Fds = JobSimple, fdtable.Table{}
	} else {
		w.jobBody(j, s, env, saved.d)
	}
	if len(w.sh.sigTraps) > 0 || len(w.sh.traps) > 0 && saved.d.SignalRunsExitTrap {
		j.trapSh, w.sh.keep = w.sh, true
	}
	// `( trap '' TERM; … ) &`: the job's own shell ignores it too.
	j.ignored |= w.sh.ignored &^ saved.ignored
	w.endShell()
	w.consumer = savedConsumer
	j.timed = w.slow == slow
	j.Quick = j.timed && w.bounded-bounded < knowledge.BriefJob
	if w.quits != fdtable.TNone && followsIntoPipe(s, env, w.quits) {
		j.Quick = true // ends with the pipeline's reader (see walker.quits)
	}
	j.dur = w.bounded - bounded
	// However long the job runs, the shell that starts it goes on at once.
	w.slow, w.bounded, w.forks = slow, bounded, forks
	j.startSlow, j.startBounded, j.startForks = slow, bounded, forks
	w.sh, w.job = saved, savedJob

	if j.Kind == JobCompound {
		// `A && exec B &`, and in dash and zsh `A && B &`: the subshell
		// becomes B once A is done, so the job holds what B holds and $!
		// reaches B.
		cmd, fds := jobBody(s.Cmd, j.Fds)
		ts, ok := w.execdTails(cmd, saved.d.BgTail, fds, !j.trap, nil)
		if ok && len(ts) > 0 && j.tailLate(ts) {
			// It execs its tail all the same, later: it does not wait
			// for it (SG1002), it holds what it holds until then.
			j.ExecsTail = true
		} else if ok && len(ts) > 0 {
			j.Fds = fdtable.Table{}
			for _, t := range ts {
				j.Fds = j.Fds.Union(t.fds)
			}
			j.becomes(ts)
			j.RunsChildren = j.RunsChildren || w.forksScript(ts)
		}
	}
	w.keepSaved(j, s, env, saved.d)
	w.inheritSaved(j)
	if saved.d.ExecCloexec && j.Kind == JobSimple && !j.forks {
		j.Fds.CloseExecFds(w.redirOpen | fdtable.RedirMask(s.Redirs))
	}
	if s.Coprocess {
		// mksh's `cmd |&`; a compound stays one (its subshell waits
		// for what it runs, as a background one does)
		j.Coproc = true
		if j.Kind == JobSimple {
			j.Kind = jobCoproc
		}
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && readsToEnd(ce) {
			j.Quick = true
		}
	}
	if s.Negated && (j.Kind == JobSimple || j.Kind == jobPipeline) && saved.d.NegatedWaits {
		// dash, mksh: a subshell runs the program (or pipeline) and
		// waits to negate its status; the redirections are the
		// program's, the subshell keeps the descriptors it was started
		// with.
		j.Kind, j.Tail = JobCompound, nil
		j.Fds = env
	}
	if s.Disown {
		// zsh's `cmd &!` and `cmd &|`: started and disowned at once.
		j.disowned = true
		if !j.Quick {
			w.mark(mark{Rule: "SG2004", Start: j.Start, End: j.End, Jobs: []*Job{j}})
		}
	}
	w.addJob(j)
	w.watchdogStarts(j, env) // ( sleep 30; kill $$ ) & (see walk_watchdog.go)
	return j
}

// jobBody walks the command of a background job in the job's subshell, and
// records what kind of job it is and what it holds.
func (w *walker) jobBody(j *Job, s *syntax.Stmt, env fdtable.Table, d *dialect.Dialect) {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		j.Kind = JobSimple
		var r knowledge.Resolved
		if name := w.p.resolveCall(c).Name; d.JobFuncSaved && len(s.Redirs) > 0 && (w.fns.funcs[name] != nil || name == "eval") {
			// dash, mksh: the job's subshell saves what the function
			// call's (or eval's) redirections replace, and what it forks
			// inherits the copies.
			w.saving(s.Redirs, env, j.Fds, func() { r = w.call(s, c, j.Fds, j.Fds) })
		} else {
			r = w.call(s, c, j.Fds, j.Fds)
		}
		j.runs(r)
		if knowledge.RunsChildren(s, j.fgLong) {
			j.RunsChildren = true
		}
		if len(c.Args) == 0 {
			// `x=$(cmd) &`: a subshell that runs the substitution as its
			// child and execs nothing.
			j.forks = true
			j.onlyReads = j.heldReads > 0 && w.slow-j.startSlow == j.heldReads && w.bounded-j.startBounded < knowledge.BriefJob
		}
		// A function runs in a forked subshell that forks its commands in
		// turn: $! is that subshell, and killing it leaves them running.
		// (Unless the body ends in exec: the subshell becomes that.) So
		// does the code of an eval, in all four shells.
		if fn := w.jobFunc(r); fn != nil {
			j.forks = true
			body := j.Fds.Apply(fn.body.Redirs)
			if d.FuncRedirsApplied {
				j.Fds = body
			}
			// What the body's last command runs with: a kill of the
			// subshell leaves it that, and not the copies it saved.
			j.callsFunc, j.bodyFds = true, body
			if b, ok := fn.body.Cmd.(*syntax.Block); ok {
				if t := tailOf(b.Stmts); t != nil {
					j.bodyFds = j.bodyFds.Apply(t.Redirs)
				}
			}
			// A body that ends in exec makes the subshell that program,
			// with the descriptors the exec gives it.
			if ts, ok := w.execdTails(fn.body.Cmd, dialect.DialectBash.BgTail, j.Fds, false, nil); ok && len(ts) > 0 {
				j.forks = false
				j.Fds = fdtable.Table{}
				for _, t := range ts {
					j.Fds = j.Fds.Union(t.fds)
				}
			}
		}
	case *syntax.Subshell:
		if len(c.Stmts) == 1 && isExecdInPlace(c.Stmts[0]) {
			// bash execs a lone simple command of a subshell in place.
			in := c.Stmts[0]
			j.Kind = JobSimple
			j.Fds = j.Fds.Apply(in.Redirs)
			r := w.call(in, in.Cmd.(*syntax.CallExpr), j.Fds, j.Fds)
			j.runs(r)
			break
		}
		j.Kind = JobCompound
		j.Tail = tailOf(c.Stmts)
		ts := w.parenTails(c.Stmts, w.sh.d, j.Fds)
		j.ExecsTail = len(ts) > 0
		watch := w.watchTails(j, ts)
		w.jobSaving(s, env, j.Fds, func() { w.stmts(c.Stmts, j.Fds) })
		if after := j.Fds; w.tailsApplied(watch) {
			// bash: the subshell became its last command, which has
			// the subshell's descriptors (an exec in it changed them).
			j.Fds = after
			j.becomes(ts)
			j.RunsChildren = j.RunsChildren || w.forksScript(ts)
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// bash forks each element directly: the job holds what its
			// elements that do not finish at once hold.
			j.Kind = jobPipeline
			j.Fds = fdtable.Table{}
			j.leadsGroup = firstLeadsGroup(c)
			j.pipeLast = lastPipeElem(c)
			w.pipeline(c, env.Apply(s.Redirs), fdtable.TPipe, false)
		} else {
			j.Kind = JobCompound
			j.Tail = tailOfBinary(c)
			w.jobSaving(s, env, j.Fds, func() { w.command(c, j.Fds) })
		}
	case *syntax.Block:
		j.Kind = JobCompound
		j.Tail = tailOf(c.Stmts)
		w.jobSaving(s, env, j.Fds, func() { w.stmts(c.Stmts, j.Fds) })
	default:
		j.Kind = JobCompound
		w.jobSaving(s, env, j.Fds, func() { w.command(s.Cmd, j.Fds) })
	}
}

func (w *walker) startCoproc(s *syntax.Stmt, cc *syntax.CoprocClause, env fdtable.Table) {
	fds := env.Apply(s.Redirs)
	fds[0], fds[1] = fdtable.TPipe, fdtable.TPipe // both ends are the shell's
	j := w.p.newJob(Job{Stmt: s, Src: w.src, Fds: fds, Kind: jobCoproc, Coproc: true, inJob: w.job != nil})
	switch c := cc.Stmt.Cmd.(type) {
	case *syntax.CallExpr:
	case *syntax.Subshell:
		j.forks = len(c.Stmts) != 1 || !isExecdInPlace(c.Stmts[0])
	default:
		j.forks = true
	}
	j.Start, j.End = w.src.Outer(int(s.Pos().Offset())), w.src.Outer(int(s.End().Offset()))
	j.InNested, j.remote = w.src.Offs != nil, w.nest.remote > 0
	j.Fds = j.Fds.Apply(cc.Stmt.Redirs)
	// bash makes the redirections of a { } body in the shell itself,
	// saving the descriptors they replace above 9 (close-on-exec), and
	// then forks the coprocess: its subshell inherits the saved copies and
	// keeps them as long as it runs. `coproc { server; } 2>/dev/null`
	// holds the caller's stderr (checked under bash); a simple command or
	// a ( ) body does not.
	var kept fdtable.Table
	if _, ok := cc.Stmt.Cmd.(*syntax.Block); ok {
		after := env.Apply(s.Redirs).Apply(cc.Stmt.Redirs)
		for fd := range env {
			if after[fd] != env[fd] {
				kept[fd] = env[fd]
			}
		}
	}
	saved, savedJob, slow, bounded, forks := w.sh, w.job, w.slow, w.bounded, w.forks
	w.sh = w.newShell(shSubshell, true)
	w.inheritJobs(saved, dialect.FormJob)
	w.job, j.sh = j, w.sh
	j.startSlow, j.startBounded, j.startForks = slow, bounded, forks
	w.stmt(&syntax.Stmt{Cmd: cc.Stmt.Cmd, Position: cc.Stmt.Position}, j.Fds)
	w.endShell()
	w.sh, w.job = saved, savedJob
	j.timed = w.slow == slow
	j.Quick = j.timed && w.bounded-bounded < knowledge.BriefJob
	if stmtReadsToEnd(cc.Stmt) {
		j.Quick = true
	}
	j.dur = w.bounded - bounded
	// However long it runs, the shell that starts it goes on at once.
	w.slow, w.bounded, w.forks = slow, bounded, forks
	if !j.Quick {
		for fd, t := range kept {
			if t == fdtable.TCaller || t == fdtable.TBlock {
				j.Fds[fd] = t
			}
		}
	}
	w.addJob(j)
	name := "COPROC"
	if cc.Name != nil {
		name = knowledge.WordLit(cc.Name)
	}
	if !w.sh.d.CoprocPidVar {
		// zsh: only $! names it; $COPROC_PID is empty and a kill of it
		// reaches nothing.
		if _, ok := w.sh.pidVars[name+"_PID"]; !ok {
			if w.sh.pidVars == nil {
				w.sh.pidVars = map[string][]*Job{}
			}
			w.sh.pidVars[name+"_PID"] = nil
		}
		return
	}
	w.pidVar(name+"_PID", j)
}

// newJob returns a job with the value v, reusing one of an earlier pass
// when it can: a job is a few hundred bytes, and a pass in front of every
// command should not feed the garbage collector more than it must. Every
// job a pass makes is in p.jobs (addJob), so none is handed out twice.
func (p *Pass) newJob(v Job) *Job {
	if n := len(p.spare); n > 0 {
		j := p.spare[n-1]
		p.spare[n-1] = nil
		p.spare = p.spare[:n-1]
		*j = v
		return j
	}
	j := new(Job) // not &v: that would move v to the heap on every call
	*j = v
	return j
}

func (w *walker) addJob(j *Job) {
	j.scope, j.region = w.scope(), w.exitRegion()
	j.num = w.nextJobNum()
	w.sh.maxNum = max(w.sh.maxNum, j.num)
	w.p.Jobs = append(w.p.Jobs, j)
	w.sh.jobs = append(w.sh.jobs, j)
	w.sh.last, w.sh.alt = j, nil
}

// lasts returns every job $! may name: the last one started, and after
// an if or case the last one of each branch.
func (sh *shell) lasts() []*Job {
	if sh.last == nil {
		return nil
	}
	if len(sh.alt) == 0 {
		return []*Job{sh.last}
	}
	return append([]*Job{sh.last}, sh.alt...)
}

// replacesPid reports whether `pid=$!` replaces what pid held for sure:
// run for sure (not behind && or ||, not in one of the branches of an if
// or case, which are alternatives whose pids the variable collects, nor
// in the first round of a loop that may not run; the second round stands
// for the last, as for $!), and
// the value is $! alone. `server & pid=$!; db & pid=$!; kill $pid` stops
// the db only.
func (w *walker) replacesPid(a *syntax.Assign) bool {
	return w.sureCond() == 0 && w.branching == 0 && !a.Append && a.Array == nil && a.Index == nil && a.Value != nil && isLastPid(a.Value)
}

func (w *walker) pidVar(name string, j *Job) {
	if w.sh.pidVars == nil {
		w.sh.pidVars = map[string][]*Job{}
	}
	w.sh.pidVars[name] = append(w.sh.pidVars[name], j)
}

// jobSaving walks the body of a compound job s, whose redirections take
// the descriptors from env to inner. In the dialects whose job process
// saves what they replace (mksh: see dialect.keepsSaved), the subshells
// the body forks inherit the copies: `{ (server; x) & } >/dev/null 2>&1 &`
// hangs the caller in mksh.
func (w *walker) jobSaving(s *syntax.Stmt, env, inner fdtable.Table, walk func()) {
	if w.sh.d.KeepsSaved&dialect.SavedCompound == 0 || len(s.Redirs) == 0 {
		walk()
		return
	}
	w.saving(s.Redirs, env, inner, walk)
}

// keepSaved adds to a background job the descriptors its redirections
// replaced, in the dialects whose job process keeps the saved copies
// (mksh for compounds, dash and mksh for function calls), for as long as
// the job runs: `{ server; } >/dev/null 2>&1 &` holds the caller in mksh.
func (w *walker) keepSaved(j *Job, s *syntax.Stmt, env fdtable.Table, d *dialect.Dialect) {
	if d.KeepsSaved == 0 || len(s.Redirs) == 0 || j.Quick || j.Kind == JobSimple && !j.forks {
		return
	}
	_, call := s.Cmd.(*syntax.CallExpr)
	if call && (d.KeepsSaved&dialect.SavedFuncCall == 0 || !j.forks) || !call && d.KeepsSaved&dialect.SavedCompound == 0 {
		return
	}
	after := env.Apply(s.Redirs)
	for fd := range env {
		if after[fd] != env[fd] && (env[fd] == fdtable.TCaller || env[fd] == fdtable.TBlock) {
			j.Fds[fd] = env[fd]
		}
	}
}

// readsToEnd reports whether a coprocess's program is a filter, which
// ends once its input does: the shell holds the only write end of that
// pipe (what it starts later does not inherit it), so `coproc cat` ends
// when the shell exits, holding nothing after it (checked under bash, zsh
// and mksh's `cat |&`).
// stmtReadsToEnd is readsToEnd for a statement: a filter, also alone in
// a { } or ( ) (`coproc C { cat; }`).
func stmtReadsToEnd(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return readsToEnd(c)
	case *syntax.Block:
		return len(c.Stmts) == 1 && stmtReadsToEnd(c.Stmts[0])
	case *syntax.Subshell:
		return len(c.Stmts) == 1 && stmtReadsToEnd(c.Stmts[0])
	}
	return false
}

func readsToEnd(ce *syntax.CallExpr) bool {
	r := knowledge.Resolve(ce.Args)
	return len(r.All) > 0 && !r.Wrapped && knowledge.IsFilter(r)
}

// bareBraces is the statement a background `{ cmd; } &` runs as, in a
// shell whose braces without redirections are no command of their own
// (dash: its parser returns the list inside): `{ a | b; } &` is the
// pipeline job `a | b &`, whose $! is b. nil when s is no such job. It
// spans the group and its & (Job.Start, Job.Amp), so that findings quote
// what was written and an edit can reach the & (the hook's redirection
// of a job).
func (w *walker) bareBraces(s *syntax.Stmt) *syntax.Stmt {
	b, ok := s.Cmd.(*syntax.Block)
	if !ok || !w.sh.d.BracesTransparent || !s.Background || s.Negated || s.Coprocess || len(s.Redirs) > 0 || len(b.Stmts) != 1 {
		return nil
	}
	in := b.Stmts[0]
	if in.Background || in.Coprocess {
		return nil
	}
	job := *in
	job.Position, job.Background, job.Semicolon = s.Position, true, s.Semicolon
	return &job
}
