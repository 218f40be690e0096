package walk

import (
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// mksh runs the command in the tail position of a subshell as a command it
// would exec: the last of its list, the right of its last && or ||, the
// last of the if or case branch that runs, of a { } group or a ( ) (which
// it does not fork then), of a function body it calls, each in turn
// (exec.c passes XEXEC down). Entering one resets the subshell's traps:
// a kill that comes while it runs finds none of the traps set before it
// (see dialect.tailDropsTraps). `( trap 'kill $c' TERM; server & c=$!;
// sleep 5 ) & … kill $!` leaves the server, in a loop, behind `sleep 5 ||
// true` or in a function too; `…; sleep 5; echo done )` does not.

// lastRun is the command of a job's body that its own process ran last of
// those that take time, and when it started: at is the time from the job's
// start, known when only literal durations came before it.
type lastRun struct {
	stmt  *syntax.Stmt
	src   *Source
	at    time.Duration
	known bool
}

// noteRun records that the shell is about to run s, a command that takes
// time, when the walk is in the body of a background job.
func (w *walker) noteRun(s *syntax.Stmt) {
	if j := w.job; j != nil {
		j.last = lastRun{stmt: s, src: w.src, at: w.bounded - j.startBounded, known: w.slow == j.startSlow}
	}
}

// trapDropped reports whether, at the time of a kill, the subshell of j
// has entered a command in tail position since it set the trap t: its
// tail is wait, or the last command that takes time runs in one that
// does not hold the trap command, and started before now (the shell has
// run nothing of unknown length since the job started).
func (w *walker) trapDropped(j *Job, t *sigTrap) bool {
	if w.tailWaits(j.Stmt, 0) {
		return true
	}
	l := j.last
	if l.stmt == nil || !l.known || l.src != j.Src || w.slow != j.startSlow || w.bounded-j.startBounded < l.at {
		return false
	}
	n := w.tailHolding(j.Stmt, l.stmt, 0)
	if n == nil {
		return false
	}
	start, end := j.Src.Outer(int(n.Pos().Offset())), j.Src.Outer(int(n.End().Offset()))
	return len(t.offs) == 0 || t.offs[0] < start || t.offs[0] >= end
}

// tailWaits reports whether the command in s's tail position, through
// the functions it calls there, is wait: `start() { trap 'kill $c' TERM;
// server & c=$!; wait; }; start & … kill $!` drops the trap as `( trap
// …; wait ) &` does.
func (w *walker) tailWaits(s *syntax.Stmt, depth int) bool {
	s = lastStmt(s)
	if isWait(s) {
		return true
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && depth < 8 {
		if fn := w.calledFunc(ce); fn != nil {
			return w.tailWaits(fn.body, depth+1)
		}
	}
	return false
}

// tailHolding returns the innermost statement in tail position within s
// (see above) that holds t, or nil.
func (w *walker) tailHolding(s, t *syntax.Stmt, depth int) *syntax.Stmt {
	if depth > 8 {
		return nil // a function that calls itself
	}
	for _, k := range w.tailKids(s) {
		if w.tailHolds(k, t, depth) {
			if in := w.tailHolding(k, t, depth+1); in != nil {
				return in
			}
			return k
		}
	}
	return nil
}

// tailKids are the statements in tail position directly within s.
func (w *walker) tailKids(s *syntax.Stmt) []*syntax.Stmt {
	last := func(list []*syntax.Stmt) []*syntax.Stmt {
		if len(list) == 0 {
			return nil
		}
		return list[len(list)-1:]
	}
	switch c := s.Cmd.(type) {
	case *syntax.Subshell:
		return last(c.Stmts)
	case *syntax.Block:
		return last(c.Stmts)
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return []*syntax.Stmt{c.Y}
		}
	case *syntax.IfClause:
		var ks []*syntax.Stmt
		for ; c != nil; c = c.Else {
			ks = append(ks, last(c.Then)...)
		}
		return ks
	case *syntax.CaseClause:
		var ks []*syntax.Stmt
		for _, it := range c.Items {
			ks = append(ks, last(it.Stmts)...)
		}
		return ks
	case *syntax.CallExpr:
		if fn := w.calledFunc(c); fn != nil {
			return []*syntax.Stmt{fn.body}
		}
	}
	return nil
}

// tailHolds reports whether running s runs t: t is s, within s, or within
// the body of a function s calls.
func (w *walker) tailHolds(s, t *syntax.Stmt, depth int) bool {
	if s == t || s.Pos().Offset() <= t.Pos().Offset() && t.End().Offset() <= s.End().Offset() {
		return true
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && depth <= 8 {
		if fn := w.calledFunc(ce); fn != nil {
			return w.tailHolds(fn.body, t, depth+1)
		}
	}
	return false
}

// calledFunc is the function a simple command calls, or nil.
func (w *walker) calledFunc(ce *syntax.CallExpr) *function {
	if len(ce.Args) == 0 {
		return nil
	}
	return w.fns.funcs[w.p.resolveCall(ce).Name]
}

// killTrapped applies a signal that background jobs ignore from their
// start (see jobsIgnore) to the jobs ops name whose own shell set a trap
// on it, where that trap takes (see dialect.ignoredStayIgnored): the trap
// runs, as a kill's does. Where mksh dropped the trap, the signal is back
// to its default, and the subshell dies (one never trapped stays ignored:
// `( server & wait ) & … kill -INT $!` ends nothing).
func (w *walker) killTrapped(sig string, ops []*syntax.Word) {
	if w.sh.d.IgnoredStayIgnored { // (kill has ruled out what the shell refuses: killFails)
		return
	}
	named, _, _ := w.jobsNamed(ops)
	w.kills.killSig = sig
	defer func() { w.kills.killSig = "" }()
	for _, j := range named {
		if j.sigTrap(sig) != nil && (j.Kind == JobCompound || j.callsFunc) && w.sureFor(j) {
			w.killSubshell(j)
		}
	}
}
