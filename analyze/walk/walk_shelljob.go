package walk

import (
	"slices"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A background job that is a shell given a literal script (`bash -c 'cd
// app; exec ./server >log 2>&1' &`) is that shell's process until the
// shell execs its last command in place: from then on the job holds only
// what that command holds. Which commands a shell execs in place is its
// dialect's (cTail, tailKeepsRedirs, trapsForkTail, ampEndsTail; an
// explicit exec in every shell). What runs before the exec runs with the
// job's descriptors, so the job lets go of them only if that is brief.

// tailWatch counts what the tail commands of a job's shell take, apart
// from what the commands before them take.
type tailWatch struct {
	tails   []tailExec
	slow    int
	bounded time.Duration
}

func (tw *tailWatch) has(s *syntax.Stmt) bool {
	return slices.ContainsFunc(tw.tails, func(t tailExec) bool { return t.stmt == s })
}

// countTail adds a command's time to the watch when it is a tail.
func (w *walker) countTail(s *syntax.Stmt, d time.Duration, bounded bool) {
	tw := w.nest.tailWatch
	if tw == nil || !tw.has(s) {
		return
	}
	if bounded {
		tw.bounded += d
	} else {
		tw.slow++
	}
}

// shellTails returns the commands the shell d execs in place of itself
// at the end of its -c string list (with the descriptors each runs with),
// or nil when it ends by forking and waiting.
func (w *walker) shellTails(list []*syntax.Stmt, d *dialect.Dialect, env fdtable.Table) []tailExec {
	n := len(list)
	if n == 0 {
		return nil
	}
	implicit := d.CTail != 0 && !dialect.TrapsSet(list, d)
	if d.AmpEndsTail && n > 1 && list[n-2].Background && list[n-2].End().Line() == list[n-1].Pos().Line() {
		implicit = false
	}
	via := lastLineTails(list, d.CTail&^dialect.TailLone)
	if d.CTail&dialect.TailLone != 0 {
		// mksh: only a string that is one plain simple command.
		ce, ok := list[0].Cmd.(*syntax.CallExpr)
		implicit = implicit && n == 1 && ok && len(ce.Assigns) == 0 && len(list[0].Redirs) == 0
	}
	ts, ok := w.execdTail(list[n-1], via, env, implicit, nil)
	if !ok {
		return nil
	}
	for _, t := range ts {
		if len(t.stmt.Redirs) > 0 && !d.TailKeepsRedirs && !knowledge.Resolve(t.stmt.Cmd.(*syntax.CallExpr).Args).Exec {
			return nil // bash forks a redirected last command to restore its descriptors
		}
	}
	return ts
}

// watchJobShell starts watching the tails of the script f that the job j's
// own shell runs (see shellJob); jobShellDone applies what was seen to j.
func (w *walker) watchJobShell(j *Job, f *syntax.File, d *dialect.Dialect, env fdtable.Table) tailWatchEnd {
	return w.watchTails(j, w.shellTails(f.Stmts, d, env))
}

// jobShellDone ends what watchJobShell started.
func (w *walker) jobShellDone(e tailWatchEnd) {
	if !w.tailsApplied(e) {
		e.j.RunsChildren = true
		return
	}
	if len(e.ts) == 1 {
		// The shell became its last command: what that runs as its
		// children is out of reach of $! as well (its own nohup and
		// setsid were the shell's, which the exec keeps).
		e.j.runsRunner(w.p.resolveCall(e.ts[0].stmt.Cmd.(*syntax.CallExpr)))
		e.j.RunsChildren = e.j.RunsChildren || w.forksScript(e.ts)
	}
}

// tailWatchEnd is what a watch of a job's tails (watchTails) restores and
// compares once the job's body has been walked: a value, not a closure
// over the walker, so that the walker stays on run's stack.
type tailWatchEnd struct {
	j       *Job
	ts      []tailExec
	tw      *tailWatch // nil: no tails, nothing watched
	saved   *tailWatch
	slow    int
	bounded time.Duration
}

// watchTails starts watching the tails ts of the job j's process while its
// body is walked; tailsApplied reports whether what ran before them was
// brief, and then gives j only what the tails hold.
func (w *walker) watchTails(j *Job, ts []tailExec) tailWatchEnd {
	if len(ts) == 0 {
		return tailWatchEnd{j: j}
	}
	e := tailWatchEnd{j: j, ts: ts, tw: &tailWatch{tails: ts}, saved: w.nest.tailWatch, slow: w.slow, bounded: w.bounded}
	w.nest.tailWatch = e.tw
	return e
}

// tailsApplied ends the watch e (see watchTails).
func (w *walker) tailsApplied(e tailWatchEnd) bool {
	if e.tw == nil {
		return false
	}
	w.nest.tailWatch = e.saved
	if w.slow-e.slow > e.tw.slow || w.bounded-e.bounded-e.tw.bounded >= knowledge.BriefJob {
		return false // the process holds the job's descriptors a while first
	}
	e.j.Fds = fdtable.Table{}
	for _, t := range e.ts {
		e.j.Fds = e.j.Fds.Union(t.fds)
	}
	return true
}

// parenTails returns the commands bash execs in place of an explicit ( )
// subshell whose body is list (see dialect.parenTail), or nil.
func (w *walker) parenTails(list []*syntax.Stmt, d *dialect.Dialect, env fdtable.Table) []tailExec {
	n := len(list)
	if d.ParenTail == 0 || n == 0 || n > 1 && list[n-2].Background || dialect.TrapsSet(list, d) {
		return nil
	}
	via := d.ParenTail
	if n > 1 {
		via &^= dialect.TailAndOrAlone
	}
	ts, ok := w.execdTail(list[n-1], via, env, true, nil)
	if !ok {
		return nil
	}
	for _, t := range ts {
		if len(t.stmt.Redirs) > 0 {
			return nil // forked, to restore the descriptors after it
		}
	}
	return ts
}

// forksScript reports whether the one command ts that a job's subshell
// execs in place of itself is a shell given a literal script that it does
// not end by exec'ing: the job is then that shell, which runs the script's
// commands as its children, out of reach of a kill of $! (dash's `cd app
// && sh -c './server; :' & … kill $!` leaves the server, as the same job
// without the cd does; see jobShellDone).
func (w *walker) forksScript(ts []tailExec) bool {
	if len(ts) != 1 {
		return false
	}
	code, d, ok := literalScript(w.p.resolveCall(ts[0].stmt.Cmd.(*syntax.CallExpr)))
	if !ok || w.nest.depth >= maxNested {
		return false
	}
	f, err := w.p.ParseNested(code, d.Variant)
	return err == nil && len(f.Stmts) > 0 && w.shellTails(f.Stmts, d, ts[0].fds) == nil
}

// literalScript is the -c string of the shell the resolved command runs,
// when that string is literal, and the shell's dialect.
func literalScript(r knowledge.Resolved) (code string, d *dialect.Dialect, ok bool) {
	if d = dialect.DialectOfProgram(r.Name); d == nil {
		return "", nil, false
	}
	script, _, _, _ := dialect.ShellArgs(r.Args)
	if script == nil {
		return "", nil, false
	}
	code, _, ok = knowledge.Literal(script)
	return code, d, ok
}
