package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A kill or wait that runs only if an earlier command succeeds (or fails)
// is a maybe (walker.cond), unless the job it ends exists only under that
// same condition: `cd app || exit 1; server & …; kill $!` and `cd app &&
// { server & } && sleep 2 && kill $!` stop the server whenever there is
// one. Each maybe the walk enters gets a scope of its own; a job
// remembers the innermost scope it was started in, and a kill or wait in
// that same scope is as sure as the job. The right of `X && Y` takes over
// the jobs X started when X fails only where it started none (see
// failsWithoutJobs): Y runs whenever they exist.

// condIn enters a new maybe.
func (w *walker) condIn() {
	w.cond++
	w.scopeGen++
	w.scopes = append(w.scopes, w.scopeGen)
}

// condOut leaves the innermost maybe.
func (w *walker) condOut() {
	w.cond--
	w.scopes = w.scopes[:len(w.scopes)-1]
}

// exitCondOut leaves the maybe that a statement that may end the shell
// opened (see walker.exitLevels).
func (w *walker) exitCondOut() {
	w.ends.exitLevels = w.ends.exitLevels[:len(w.ends.exitLevels)-1]
	w.condOut()
}

// sureCond is cond without the maybes that exits opened: how deep in
// conditions the walk is as far as the shell that is still running is
// concerned.
func (w *walker) sureCond() int { return w.cond - len(w.ends.exitLevels) }

// exitRegion is the id of the innermost maybe an exit opened (renewed by
// each exit after it), 0 outside any: a job started in it exists only
// when none of those exits was taken.
func (w *walker) exitRegion() int {
	if n := len(w.ends.exitLevels); n > 0 {
		return w.scopes[w.ends.exitLevels[n-1]]
	}
	return 0
}

// condRenew makes the innermost maybe a new one, without going deeper: a
// second `|| exit 1` in the same list is a condition of its own.
func (w *walker) condRenew() {
	if n := len(w.scopes); n > 0 {
		w.scopeGen++
		w.scopes[n-1] = w.scopeGen
	}
}

// scope is the innermost maybe's id, 0 outside any.
func (w *walker) scope() int {
	if n := len(w.scopes); n > 0 {
		return w.scopes[n-1]
	}
	return 0
}

// sureFor reports whether a kill or wait walked now ends j whenever j
// runs: it runs for sure, or under the very condition j was started in,
// or for sure once the exits before it were not taken, which j needed to
// exist (`[ -f .env ] || exit 1; server & …; kill $!`). In an EXIT trap
// run at the end, also on the paths of the exits taken before it.
func (w *walker) sureFor(j *Job) bool {
	if w.traps.endTrap != nil && !w.trapReaches(j, w.traps.endTrap) {
		return false
	}
	return w.cond == 0 || j.scope != 0 && j.scope == w.scope() || len(w.ends.exitScopes) > 0 && w.endedOnExits(j) ||
		j.region != 0 && w.sureCond() == 0 && j.region == w.exitRegion()
}

// surelyStarted reports whether j runs whenever the command walked now
// does: it was started outside any maybe, or behind only the exits that
// this command is behind too.
func (w *walker) surelyStarted(j *Job) bool {
	return j.scope == 0 || j.scope == j.region && j.region == w.exitRegion()
}

// failsWithoutJobs reports whether s, when it fails, has started no
// background job. In `a1 && … && ak` only an element that may fail ends
// the list early, so every element up to the last such one must start no
// job (the ones after it, which never fail, may: `cd app && { server & }
// && sleep 2`). The look back along the list is bounded, as status's is.
func (w *walker) failsWithoutJobs(s *syntax.Stmt) bool {
	for range knowledge.MaxStatusDepth {
		if w.status(s) > 0 {
			return true
		}
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt || s.Negated || len(s.Redirs) > 0 || w.status(b.Y) <= 0 {
			return !w.startsJobs(s, 0)
		}
		s = b.X
	}
	return false
}

// startsJobs reports whether s holds a background statement, also in the
// body of a function it calls (depth bounds the look, against recursion).
func (w *walker) startsJobs(s *syntax.Stmt, depth int) bool {
	found := depth > maxNested
	knowledge.Inspect(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			found = found || n.Background || n.Coprocess
		case *syntax.CallExpr:
			if r := w.p.resolveCall(n); len(n.Args) > 0 && w.callsFunc(r) {
				found = found || !w.lookInto() || w.startsJobs(w.fns.funcs[r.Name].body, depth+1)
			}
		}
		return !found
	})
	return found
}
