package walk

import (
	"slices"
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// A process substitution runs its worker asynchronously: bash and zsh do
// not wait for `<(…)` (the command reads it, the shell goes on), bash not
// for `>(…)` either (zsh does, see dialect.waitsOutSubst). The worker
// keeps the descriptors it inherited other than the pipe, so a worker that
// outlives its command holds the caller's output: `cat < <(echo x; sleep
// 5 >/dev/null)` and `echo hi > >(sleep 2; cat)` hang bash's caller
// (checked under bash 5.2 and zsh 5.9).
//
// A worker usually lives exactly as long as the pipe: `diff <(sort a)
// <(sort b)` — sort ends when it has written, and diff reads to the end.
// So what counts is only what runs with the pipe out of the way: for
// `<(…)`, commands whose stdout is not the pipe; for `>(…)`, commands that
// do not read the pipe, literal durations (`sleep 2`) and servers.

//
// Two things change that. A command that does not read the `<(…)` it is
// given (`:`, `echo`, `test`: the quick builtins) leaves the worker on its
// own: all it does then takes time off the pipe (`echo <(server)` hangs
// the caller). (A `>(…)` worker reads the pipe, which ends when the
// command and the shell close it, whatever the command does.)
// And the worker execs its last command in place (dialect.substTail): from
// then on it holds only what that command holds, so `cat <(server >log
// 2>&1)` leaks the server but lets the caller go.

// worker is the walk's account of one process substitution worker.
type worker struct {
	job  *Job           // the worker as a job
	fd   int            // the worker's end of the pipe: 1 for <(…), 0 for >(…)
	pipe fdtable.Target // what that end is in the walk: tWorker, deeper for nested workers
	idle bool           // the command it serves does not read or write it
	// earlyStop: the command it serves may stop reading before EOF (read,
	// head), leaving the worker to go on by itself.
	earlyStop bool
	detached  int // commands that may take a while off the pipe
	dur       time.Duration
	// tails are the commands the worker execs in place, and tailDetached
	// and tailDur their part of detached and dur.
	tails        []tailExec
	tailDetached int
	tailDur      time.Duration
	// slow and bounded are all its commands take, on the pipe or not:
	// how long a command that reads it to the end lasts.
	slow    int
	bounded time.Duration
}

// beforeTail reports whether commands before the tail exec take a while:
// the worker holds what it inherited until the exec.
func (wk *worker) beforeTail() bool {
	return wk.detached > wk.tailDetached || wk.dur-wk.tailDur >= knowledge.BriefJob
}

// procSubst walks a process substitution and records its worker as a job
// the shell has no handle on.
func (w *walker) procSubst(ps *syntax.ProcSubst, env fdtable.Table) {
	in := ps.Op == syntax.CmdIn
	if w.substWaited(ps) {
		sub := env
		if in {
			sub[1] = fdtable.TPipe
		} else {
			sub[0] = fdtable.TPipe
		}
		w.subshell(ps.Stmts, sub, dialect.FormProcSubst) // zsh waits for it: a foreground subshell
		return
	}
	s := &syntax.Stmt{Position: ps.OpPos, Cmd: &syntax.Subshell{Lparen: ps.OpPos, Rparen: ps.Rparen, Stmts: ps.Stmts}}
	j := w.p.newJob(Job{Stmt: s, Src: w.src, Fds: env, Kind: JobSimple, forks: true, worker: true, inJob: w.job != nil})
	wk := &worker{job: j, fd: 0, idle: in && w.consumer != nil && idleCommand(w.consumer),
		earlyStop: in && w.consumer != nil && stopsEarly(w.consumer)}
	if in {
		wk.fd = 1
	}
	wk.pipe = fdtable.TWorker
	if w.worker != nil {
		wk.pipe = w.worker.pipe + 1
	}
	j.Fds[wk.fd] = wk.pipe
	if n := len(ps.Stmts); n > 0 && !dialect.TrapsSet(ps.Stmts, w.sh.d) {
		if ts, ok := w.execdTail(ps.Stmts[n-1], w.sh.d.SubstTail, j.Fds, true, nil); ok {
			wk.tails = ts
		}
	}
	j.Start, j.End = w.src.Outer(int(s.Pos().Offset())), w.src.Outer(int(s.End().Offset()))
	j.InNested, j.remote = w.src.Offs != nil, w.nest.remote > 0

	saved, savedJob, savedWorker, slow, bounded := w.sh, w.job, w.worker, w.slow, w.bounded
	w.sh = w.newShell(shSubshell, true)
	w.inheritJobs(saved, dialect.FormProcSubst)
	w.job, w.worker, j.sh = j, wk, w.sh
	njobs := len(w.p.Jobs)
	w.stmts(ps.Stmts, j.Fds)
	w.endShell()

	j.Quick = wk.detached == 0 && wk.dur < knowledge.BriefJob && !w.keepOpen(w.p.Jobs[njobs:], fdtable.TCaller)
	j.dur = wk.dur
	j.pipeBrief = wk.slow == 0 && wk.bounded < knowledge.BriefJob && !w.keepOpen(w.p.Jobs[njobs:], wk.pipe)
	if len(wk.tails) > 0 && !wk.beforeTail() {
		j.Fds = fdtable.Table{}
		for _, t := range wk.tails {
			j.Fds = j.Fds.Union(t.fds)
		}
	}
	w.slow, w.bounded = slow, bounded
	w.sh, w.job, w.worker = saved, savedJob, savedWorker
	j.scope, j.region = w.scope(), w.exitRegion() // (as addJob)
	w.p.Jobs = append(w.p.Jobs, j)                // not in the job table: wait and %N do not reach it
}

// substWaited reports whether the shell waits for the worker of ps once
// the command it serves is done, as zsh does (dialect.waitsSubst) for a
// `>(…)` argument (getproc in Src/exec.c: `tee >(gzip > f)`) but not a
// `<(…)` one (`diff <(a) <(b)`), and for a redirection's target (getpipe:
// `< <(…)`, `> >(…)`) where the shell itself runs the command (see
// runsHere): a program forks first, and the child that makes the
// substitution execs it; `exec` keeps it for the rest of the script
// (`exec > >(tee -a log) 2>&1`), as does a `{fd}>` target. A worker not
// waited for runs on as bash's does, and may outlive the shell.
func (w *walker) substWaited(ps *syntax.ProcSubst) bool {
	if !w.sh.d.WaitsSubst {
		return false
	}
	if s := w.redirStmt; s != nil {
		for _, r := range s.Redirs {
			if r.Word == nil || len(r.Word.Parts) != 1 || r.Word.Parts[0] != ps {
				continue
			}
			return (r.N == nil || knowledge.IsDigits(r.N.Value)) && w.runsHere(s)
		}
	}
	return ps.Op == syntax.CmdOut
}

// runsHere reports whether the shell runs s itself and is still there
// when it ends: a builtin or a function, or a compound other than a
// subshell, unless the shell execs a program in it in place of itself as
// the last command of its -c string (see markInPlace): `{ echo a; cmd; }
// > >(tee log)` ends as cmd, `while read l; do cmd; done < <(…)` does not.
func (w *walker) runsHere(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return len(c.Args) == 0 || w.inShell(c)
	case *syntax.Subshell:
		return false
	}
	if w.sh != &w.p.Root.sh || w.src != &w.p.Root.Src {
		return true
	}
	return !slices.ContainsFunc(w.p.inPlaceStmts(), func(t *syntax.Stmt) bool {
		ce, ok := t.Cmd.(*syntax.CallExpr)
		return ok && len(ce.Args) > 0 && !w.inShell(ce) && t.Pos().Offset() >= s.Pos().Offset() && t.End().Offset() <= s.End().Offset()
	})
}

// inShell reports whether the simple command ce runs in the shell: a
// builtin other than exec, or a function.
func (w *walker) inShell(ce *syntax.CallExpr) bool {
	name := knowledge.WordLit(ce.Args[0])
	return name != "exec" && knowledge.Builtins.Has(name) || w.fns.funcs[name] != nil
}

// stopsEarly reports whether a command may read only the start of its
// input: `read x < <(cmd)`, `head -1 <(cmd)`, grep told to stop at the
// first match, `grep -m1 ready`, `grep -q ready`, and a sed script that
// quits (`sed '/ready/q'`).
func stopsEarly(ce *syntax.CallExpr) bool {
	if len(ce.Args) == 0 {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	switch r.Name {
	case "read", "head", "line":
		return true
	case "grep", "egrep", "fgrep":
		return grepStops(r.Args)
	case "sed":
		// sed '/ready/q'; not awk's exit, which mawk (Debian's awk) reaches
		// only once it has filled its input buffer or met EOF
		for _, a := range r.Args {
			if o := knowledge.Value(a); !strings.HasPrefix(o, "-") && sedQuits.Get().MatchString(o) {
				return true
			}
		}
	}
	return false
}

// sedQuits finds a q or Q command in a sed script.
// (compiled on first use: shguard starts before every command)
var sedQuits = lazy.Regexp{Expr: `(^|[/;{}\s])[qQ]\s*[0-9]*\s*($|[;}\n])`}

// grepStops reports whether grep's arguments include -q (--quiet,
// --silent) or -m N (--max-count), also in a cluster (`-qE`, `-m1`).
func grepStops(args []*syntax.Word) bool {
	for _, a := range args {
		o := a.Lit()
		switch {
		case o == "--":
			return false
		case o == "--quiet" || o == "--silent" || strings.HasPrefix(o, "--max-count"):
			return true
		case len(o) > 1 && o[0] == '-' && o[1] != '-':
			for _, ch := range o[1:] {
				if ch == 'q' || ch == 'm' {
					return true
				}
				if strings.ContainsRune("ABCDdef", ch) {
					break // the rest is the option's value
				}
			}
		}
	}
	return false
}

// workerCall counts a command of a process substitution's worker that may
// take a while, if it does so with the pipe out of the way.
func (w *walker) workerCall(s *syntax.Stmt, r knowledge.Resolved, inner fdtable.Table) {
	wk := w.worker
	if wk == nil || w.job != wk.job {
		return // (a job the worker starts does not delay it)
	}
	d, bounded := r.Bound()
	tail := slices.ContainsFunc(wk.tails, func(t tailExec) bool { return t.stmt == s })
	switch {
	case tail && !inner.Has(wk.pipe) && inner[0] != wk.pipe:
		// The worker becomes this command, which does not have the pipe:
		// the reader gets EOF at the exec (`cat <(server >log 2>&1)`).
	case bounded:
		wk.bounded += d
	default:
		wk.slow++
	}
	switch {
	case wk.fd == 1 && inner[1] == wk.pipe && follows(r):
		// tail -f into the pipe exits as soon as no reader is left: when
		// the command is done with it and the shell closes its end
		// (`grep -m1 ready <(tail -f log)`, `echo <(tail -f log)`, `while
		// read l; do …; break; done < <(tail -f log)`).
		return
	case wk.idle:
	case wk.fd == 1 && !tail && !wk.earlyStop:
		// The worker holds its end of the pipe until it exits or execs
		// its tail: a reader that reads to EOF (cat, mapfile, a while
		// read loop) waits for everything before the tail.
		return
	case inner[wk.fd] != wk.pipe || knowledge.EndlessKind(r) != "":
	case bounded && (wk.fd == 0 || wk.earlyStop && r.Name == "sleep"):
		// >(sleep 2; cat): a pause does not read the pipe; nor does it
		// write it: after `read x < <(echo ok; sleep 2)` has its line,
		// the sleep runs on where a writer would die at its next write.
	default:
		return
	}
	if bounded {
		wk.dur += d
		if tail {
			wk.tailDur += d
		}
	} else {
		wk.detached++
		if tail {
			wk.tailDetached++
		}
	}
}
