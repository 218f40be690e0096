package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// EXIT traps on the way out. An exit that may be taken runs the EXIT
// traps in force where it stands, at that time, and not the ones the
// shell sets after it: `server & P=$!; [ -f .env ] || exit 1; trap 'kill
// $P' EXIT` leaves the server when .env is missing, in all four shells,
// while the same trap set before the guard stops it. So a trap the shell
// runs at its end stops a job for sure only where every exit that may
// have been taken while the job ran stopped it too: the job started
// after the last such exit before the trap was set (trapBody.region), or
// each of those exits killed it first (its plain kills, or the traps in
// force then: see exitTrapKills), and no exit came so soon after the
// job's start that the trap's kill was lost (mksh: job.exitRaced).

// trapReaches reports whether a kill or wait in the EXIT trap t, walked
// as the shell ends, ends j on every path that ends the shell: also on
// those of the exits taken before the trap was set.
func (w *walker) trapReaches(j *Job, t *trapBody) bool {
	if j.exitRaced || t.maybe {
		return false // (a trap that may not be set stops nothing for sure)
	}
	return j.region >= t.region || w.exitEnded(t.region, j)
}

// noteExitRaces marks the jobs that an exit walked now may leave before
// they had the time to set up their signals (mksh: see killLost): the
// EXIT trap that exit runs at once loses its kill of them.
func (w *walker) noteExitRaces() {
	if !w.sh.d.KillRaces {
		return
	}
	for _, j := range w.sh.jobs {
		if w.killLost(j, "") {
			j.exitRaced = true
		}
	}
}

// exitTrapKills is the jobs that the EXIT traps in force now kill for
// sure when they run: those an exit taken here leaves stopped.
func (w *walker) exitTrapKills() []*Job {
	sh := w.sh
	if sh.replaced || sh.skipTraps {
		return nil
	}
	var ended []*Job
	for _, t := range sh.traps {
		f, err := w.p.ParseNested(t.code, sh.d.Variant)
		if err != nil {
			continue
		}
		savedSrc, savedLast := w.src, sh.last
		w.src = &Source{Offs: t.offs, Text: []byte(t.code), File: f}
		if t.set {
			sh.last = t.last
		}
		restore := sh.bindTrapVars(t.vars)
		ended = append(ended, w.listSureKills(f.Stmts, 0)...)
		restore()
		sh.last, w.src = savedLast, savedSrc
	}
	return ended
}

// listSureKills is the jobs that running list in order kills for sure
// before anything in it may end it: its plain kills, also those of the
// functions it calls, of its groups and on the left of its && and ||
// (`cleanup() { kill $P 2>/dev/null || true; }`). depth bounds the look
// into functions.
func (w *walker) listSureKills(list []*syntax.Stmt, depth int) []*Job {
	var ended []*Job
	for _, s := range list {
		ended = append(ended, w.sureKills(s, depth)...)
		if w.exits(s, depth) != endsNever || returnsEarly(s) {
			break
		}
	}
	return ended
}

// sureKills is listSureKills for one statement.
func (w *walker) sureKills(s *syntax.Stmt, depth int) []*Job {
	if js := w.plainKill(s); len(js) > 0 || depth > maxNested || s.Background || s.Coprocess || s.Negated {
		return js
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return w.sureKills(c.X, depth)
		}
	case *syntax.Block:
		return w.listSureKills(c.Stmts, depth)
	case *syntax.CallExpr:
		if _, body := w.callEnds(c); body != nil {
			if b, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 && w.lookInto() {
				return w.listSureKills(b.Stmts, depth+1)
			}
		}
	}
	return nil
}

// exitLeaves is exitKills for a statement that is an exit: the jobs the
// EXIT traps it runs kill (an exec replaces the shell, which runs none).
func (w *walker) exitLeaves(s *syntax.Stmt, depth int) ([]*Job, bool) {
	if knowledge.IsCallOf(s.Cmd, "return") && !w.returnEnds(depth) {
		return nil, false
	}
	if knowledge.IsCallOf(s.Cmd, "return") && w.ends.countReturns {
		return nil, true // (a return runs no EXIT trap)
	}
	if knowledge.IsCallOf(s.Cmd, "exit") || knowledge.IsCallOf(s.Cmd, "return") {
		return w.exitTrapKills(), true
	}
	return nil, true
}
