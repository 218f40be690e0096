package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// pipeline walks each element in its own subshell (zsh's last one, see
// here, in the current shell). Every element but the
// last writes into a pipe; outPipe says what that pipe is to the walker
// (tBlock when the shell waits for the reader, tPipe inside a job). It
// reports whether an element may take a while, and whether the last one
// does while writing into outPipe (which is what keeps a reader of the
// whole pipeline going).
//
// here: the pipeline runs in the foreground of the current shell, whose
// dialect may run its last element itself (dialect.lastPipeHere).
func (w *walker) pipeline(c *syntax.BinaryCmd, env fdtable.Table, outPipe fdtable.Target, here bool) (long, feeds bool) {
	defer w.cutPipeline(c)() // (see walk_timeoutpipe.go)
	if args := pipedToKill(c); args != nil {
		// echo $! | xargs kill, jobs -p | xargs kill: as kill $(echo
		// $!), kill $(jobs -p) (which signals each job's listed process)
		_, w.kills.killProg = c.Y.Cmd.(*syntax.CallExpr) // xargs kill, not a read loop's
		w.kill(args)
		w.kills.killProg = false
		here = false // the kills are done: the loop's own walk adds nothing
	}
	left := env
	left[1] = outPipe
	if c.Op == syntax.PipeAll {
		left[2] = outPipe
	}
	j := w.job
	var rest fdtable.Table
	fgLong := 0
	if j != nil {
		rest, fgLong = j.pipeRest, j.fgLong
	}
	quits := w.quits
	w.quits = fdtable.TNone
	if ce, ok := c.Y.Cmd.(*syntax.CallExpr); ok && outPipe == fdtable.TBlock && stopsEarly(ce) {
		w.quits = outPipe // (see walker.quits)
	}
	longX, feedsX := w.pipeElem(c.X, left, outPipe, false, false)
	w.quits = quits
	// Every element that may take a while runs on after a kill of the
	// job's subshell, not only the last (see fgLong): `cd app && server
	// | cat >/dev/null 2>&1 &` then kill $! leaves the server holding the
	// caller's stderr.
	var fgX fdtable.Table
	xLong := j != nil && j.fgLong != fgLong
	if xLong {
		fgX = j.fgFds
	}
	if j != nil && j.Kind == jobPipeline && c.Y == j.pipeLast && followsIntoPipe(c.X, left, outPipe) {
		j.pipeRest = rest // tail -f ends with $!, its reader
	}
	// `echo 'cmd &' | bash`: the shell on the right runs what the left
	// side prints, when that is a literal (see fedScript).
	if _, ok := c.Y.Cmd.(*syntax.CallExpr); ok {
		w.nest.fed = fedScript(c.X)
	}
	longY, feedsY := w.pipeElem(c.Y, env, outPipe, feedsX, here)
	if xLong {
		j.fgFds = j.fgFds.Union(fgX)
	}
	w.nest.fed = nil
	return longX || longY, feedsY
}

// pipeElem walks one element of a pipeline and reports whether it may take
// a while, and whether it does so writing into outPipe. upstream says
// whether the elements before it keep writing into its stdin for a while:
// a filter (cat, grep, tee…) ends when its input does, so it lasts as long
// as they do whatever the walk counted for it (`server >/dev/null | tee
// log` ends tee at once; `server 2>&1 >/dev/null | tee log` does not).
func (w *walker) pipeElem(s *syntax.Stmt, env fdtable.Table, outPipe fdtable.Target, upstream, last bool) (long, feeds bool) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Background && len(s.Redirs) == 0 {
		return w.pipeline(b, env, outPipe, last)
	}
	saved, slow, bounded, njobs := w.sh, w.slow, w.bounded, len(w.p.Jobs)
	var fgLong int
	var fgFds fdtable.Table
	if j := w.job; j != nil {
		fgLong, fgFds = j.fgLong, j.fgFds
	}
	defer w.cutFilter(s, upstream)()
	if last && w.sh.d.LastPipeHere {
		w.stmt(s, env) // zsh runs it itself: its jobs and variables are the shell's
	} else {
		w.sh = w.newShell(shSubshell, saved.async)
		unfork := w.cutFork(saved, w.sh)
		w.inheritJobs(saved, dialect.FormPipe)
		w.fgSubshell(saved, nil, s, dialect.FormPipe) // (see walk_fgtails.go)
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && !w.callsFunc(w.p.resolveCall(ce)) {
			w.sh.execsElem = true
		}
		w.stmt(s, env)
		w.endShell()
		unfork()
		w.sh = saved
		w.forkKilled()
	}
	long = w.slow != slow || w.bounded-bounded >= knowledge.BriefJob
	// A job the element starts and leaves running with the pipe open
	// keeps the reader going as long as it runs.
	feeds = w.keepOpen(w.p.Jobs[njobs:], outPipe)
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && knowledge.IsFilter(w.p.resolveCall(ce)) && !readsProcSubst(ce) {
		long = upstream
		if !long {
			// it ends at once: nothing of it runs on after a kill of
			// its job's subshell either (see killSubshell)
			w.slow, w.bounded = slow, bounded
			if j := w.job; j != nil {
				j.fgLong, j.fgFds = fgLong, fgFds
			}
		}
	}
	long = long || feeds
	el := env.Apply(s.Redirs)
	if w.sh.d.Multios && env[1] == outPipe {
		// zsh copies what a redirected element writes into the pipe as
		// well (MULTIOS): `server >log | cat` still feeds cat.
		el[1] = outPipe
	}
	if j := w.job; j != nil && j.Kind == jobPipeline && j.Stmt.Cmd != nil && long {
		// An element of a background pipeline that takes a while holds
		// its descriptors for the job; so do the elements before the
		// last, which is $!, for what a kill of $! leaves.
		own := el
		if ts, ok := w.elemTails(s, el); ok {
			// dash, zsh: the element's process becomes the program
			// its body ends with (as a background job's does), which
			// holds only its own descriptors.
			own = fdtable.Table{}
			for _, t := range ts {
				own = own.Union(t.fds)
			}
		} else {
			// An element that is a program is exec'd in its child, which
			// closes the saved copies the shell holds (close-on-exec); any
			// other element is a forked subshell that keeps them while it
			// runs (see dialect.childrenKeepSaved).
			if ce, ok := s.Cmd.(*syntax.CallExpr); !ok || !w.execsTail(ce) {
				for fd, t := range w.heldSaved() {
					if t != fdtable.TNone {
						own[fd] = t
					}
				}
			} else if w.sh.d.ExecCloexec {
				own.CloseExecFds(w.redirOpen | fdtable.RedirMask(s.Redirs)) // mksh: `exec 3>&1; a | b >&3 &`
			}
			if len(s.Redirs) > 0 && w.pushesRedirs(s) {
				for fd := range env {
					if el[fd] != env[fd] && (env[fd] == fdtable.TCaller || env[fd] == fdtable.TBlock) {
						own[fd] = env[fd] // saved while the body runs
					}
				}
			}
		}
		j.Fds.Hold(own)
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && j.fgLong > fgLong && w.callsFunc(w.p.resolveCall(ce)) {
			// The element's subshell runs the function and forks its
			// programs (no shell execs a function's last command):
			// `start 2>&1 | tee log & … kill %1` kills the subshell
			// and tee, and the server start runs goes on (bash, zsh;
			// mksh's subshell waits for it, holding its saved copies).
			j.pipeForks.Hold(j.fgOwn)
			if w.sh.d.SubshellDefersTerm {
				j.pipeForks.Hold(own)
			}
		}
		if s != j.pipeLast || knowledge.RunsChildren(s, j.fgLong-fgLong) || readsScript(s) && !w.nest.nestedExecs {
			// (find -exec or xargs as $!: the command it runs goes on;
			// so does what a shell reading its script from the pipe runs:
			// it execs none of it in place, unless told to with exec)
			j.pipeRest.Hold(own)
			j.pipeChildren = j.pipeChildren || s == j.pipeLast
		}
	}
	return long, feeds || long && el.Has(outPipe)
}

// keepOpen reports whether any of the jobs takes a while with a descriptor
// on t open.
func (w *walker) keepOpen(jobs []*Job, t fdtable.Target) bool {
	for _, j := range jobs {
		if !j.Quick && j.Fds.Has(t) {
			return true
		}
	}
	return false
}

// readsProcSubst reports whether a command has a `<(…)` operand: a filter
// given one reads that pipe as well as its stdin, and lasts as long as the
// worker keeps it open (`cat <(server 2>&1 >/dev/null &) | tee log &`).
func readsProcSubst(ce *syntax.CallExpr) bool {
	for _, a := range ce.Args {
		for _, p := range a.Parts {
			if ps, ok := p.(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
				return true
			}
		}
	}
	return false
}

// followsIntoPipe reports whether a pipeline element is `tail -f` (-F,
// --follow) writing into the pipe: GNU tail watches its output when that
// is a pipe and exits within a second of the reader going, though it
// writes nothing (tail.c check_output_alive, coreutils 8.28 and later).
// So `tail -f app.log | grep ERROR & … kill $!` ends both, where any
// other writer runs on until a write finds no reader.
func followsIntoPipe(s *syntax.Stmt, env fdtable.Table, outPipe fdtable.Target) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && env.Apply(s.Redirs)[1] == outPipe && follows(knowledge.Resolve(ce.Args))
}

// follows reports whether a command is GNU `tail -f` (-F, --follow),
// which exits once its stdout is a pipe with no reader left (see
// followsIntoPipe).
func follows(r knowledge.Resolved) bool {
	if r.Name != "tail" {
		return false
	}
	for _, a := range r.Args {
		o := a.Lit()
		switch {
		case o == "--":
			return false
		case o == "--follow" || strings.HasPrefix(o, "--follow="):
			return true
		case len(o) > 1 && o[0] == '-' && o[1] != '-':
			// -f, -F, -qf, -fn0, -100f; -n and -c take the rest
			for _, ch := range o[1:] {
				if ch == 'f' || ch == 'F' {
					return true
				}
				if ch == 'n' || ch == 'c' || ch == 's' {
					break
				}
			}
		}
	}
	return false
}

// pushesRedirs reports whether an element of a background pipeline,
// with redirections of its own, runs its body with them pushed (the
// replaced descriptors saved, to restore after it) in the dialects whose
// element process does so (dialect.savedPipeElem): a group, if, loop or
// case, or a function call (savedFuncCall); not a program, which gets
// them, nor a ( ), whose subshell makes them for good.
func (w *walker) pushesRedirs(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
		return w.sh.d.KeepsSaved&dialect.SavedPipeElem != 0
	case *syntax.CallExpr:
		return w.sh.d.KeepsSaved&dialect.SavedFuncCall != 0 && w.callsFunc(w.p.resolveCall(c))
	}
	return false
}

// elemTails returns the simple commands a compound element of a
// background pipeline ends by exec'ing in place of its process (with
// the descriptors each runs with): what the dialect's background
// subshells exec (bgTail; dash not through the element's own pushed
// redirections, see tailRedirected), and an explicit exec in any shell.
func (w *walker) elemTails(s *syntax.Stmt, fds fdtable.Table) ([]tailExec, bool) {
	if _, call := s.Cmd.(*syntax.CallExpr); call {
		return nil, false
	}
	via := w.sh.d.BgTail
	implicit := len(s.Redirs) == 0 || via&dialect.TailRedirected != 0
	cmd, fds := jobBody(s.Cmd, fds)
	ts, ok := w.execdTails(cmd, via, fds, implicit, nil)
	return ts, ok && len(ts) > 0
}
