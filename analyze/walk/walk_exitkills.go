package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Kills on the way out: test scripts stop the server before the exit a
// failed readiness poll takes, and again at the end (`for i in $(seq 30);
// do curl -s localhost:8080 && break; sleep 1; done; [ $i -eq 30 ] && {
// kill $APP; exit 1; }; npm test; kill $APP`, `wait_for_port || { kill
// $PID; exit 1; }`, `if ! ready; then kill $PID; exit 1; fi`). What
// follows such a statement is a maybe (see afterExit), and so was the
// kill after it; but it runs exactly when the exit was not taken, and
// every exit it could take stopped the job first: the job ends on every
// path. Such a maybe remembers the jobs each of its exits stopped (an
// exitScope), and a kill or wait inside it ends them as surely as it
// would outside it (see sureFor). Whether the poll succeeds is not known;
// it does not need to be.

// exitScope is a maybe that follows statements that may end the shell,
// with the jobs every exit they could take killed first; or a branch that
// may not run, with the jobs every alternative to it ends as well (see
// walk_branchscope.go).
type exitScope struct {
	scope int
	ended []*Job
}

// noteExitKills records, for the maybe that afterExit just entered (new)
// or renewed after the statement s, the jobs every exit of s killed
// first; after a renewal only those every earlier exit killed too, or
// that started after the earlier exits (`[ -f .env ] || exit 1` before
// the server starts leaves no server behind).
func (w *walker) noteExitKills(s *syntax.Stmt, oldScope int, renewed bool) {
	js, found := w.exitKills(s, 0)
	if renewed {
		var prev []*Job
		if i := slices.IndexFunc(w.ends.exitScopes, func(e exitScope) bool { return e.scope == oldScope }); i >= 0 {
			prev = w.ends.exitScopes[i].ended
		}
		js = slices.DeleteFunc(js, func(j *Job) bool { return !slices.Contains(prev, j) && j.scope != oldScope })
	}
	if !found || len(js) == 0 {
		return
	}
	w.ends.exitScopes = append(w.ends.exitScopes, exitScope{scope: w.scope(), ended: js})
}

// endedOnExits reports whether the innermost maybes that a kill or wait
// walked now is in are exit scopes whose exits all stopped j, and the
// kill would be sure for j without them (see sureFor).
func (w *walker) endedOnExits(j *Job) bool {
	n := len(w.scopes)
	k := 0
	for n-k > 0 && w.exitEnded(w.scopes[n-k-1], j) {
		k++
	}
	if k == 0 {
		return false
	}
	return w.cond-k == 0 || j.scope != 0 && n-k > 0 && j.scope == w.scopes[n-k-1]
}

// exitEnded reports whether scope is an exit scope whose exits stopped j.
func (w *walker) exitEnded(scope int, j *Job) bool {
	for _, e := range w.ends.exitScopes {
		if e.scope == scope {
			return slices.Contains(e.ended, j)
		}
	}
	return false
}

// exitKills is the jobs that every path through s ending the shell kills
// for sure before it ends it: a plain kill earlier in the same list
// (`{ kill $PID; exit 1; }`, an if branch, a function's body). found is
// false when s has no exit the walk sees. depth bounds the look into
// functions.
func (w *walker) exitKills(s *syntax.Stmt, depth int) (ended []*Job, found bool) {
	if depth > maxNested || s.Background || s.Coprocess {
		return nil, false
	}
	if ends(s) {
		return w.exitLeaves(s, depth)
	}
	if w.errexitExits(s, depth) == endsSurely {
		return w.exitTrapKills(), true // set -e; … false: an exit that runs the EXIT trap
	}
	paths := exitPaths{}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if found, sig := w.nestedMayKillParent(s, c); found {
			return w.forkKillEnds(sig), true // sh -c 'cd app && kill $PPID'
		}
		execs, body := w.callEnds(c)
		if execs {
			return nil, true
		}
		if body != nil {
			if !w.lookInto() {
				return nil, true // (see lookahead.go)
			}
			return w.exitKills(body, depth+1)
		}
	case *syntax.Block:
		return w.listExitKills(c.Stmts, depth)
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			return nil, false // a pipeline's exits are its elements' own (zsh's last aside)
		}
		paths.add(w.exitKills(c.X, depth))
		paths.add(w.exitKills(c.Y, depth))
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			paths.add(w.listExitKills(ic.Cond, depth))
			paths.add(w.listExitKills(ic.Then, depth))
		}
	case *syntax.WhileClause:
		paths.add(w.listExitKills(c.Cond, depth))
		paths.add(w.listExitKills(c.Do, depth))
	case *syntax.ForClause:
		paths.add(w.listExitKills(c.Do, depth))
	case *syntax.CaseClause:
		for _, it := range c.Items {
			paths.add(w.listExitKills(it.Stmts, depth))
		}
	case *syntax.Subshell:
		if found, sig := forkMayKill(c); found {
			return w.forkKillEnds(sig), true // (cd /tmp && kill $$)
		}
		if found, sig := w.subshellMayKillParent(c); found {
			return w.forkKillEnds(sig), true // (cd app && sh -c 'kill $PPID')
		}
	}
	return paths.ended, paths.found
}

// callEnds reads a simple command for what may end the shell: an exec of
// a program (execs), or the body of the function it calls (body).
func (w *walker) callEnds(c *syntax.CallExpr) (execs bool, body *syntax.Stmt) {
	if len(c.Args) == 0 {
		return false, nil
	}
	if w.execs(c) {
		return true, nil
	}
	if r := w.p.resolveCall(c); w.callsFunc(r) {
		return false, w.fns.funcs[r.Name].body
	}
	return false, nil
}

// listExitKills is exitKills for a list run in order: an exit in it
// comes after the plain kills before it.
func (w *walker) listExitKills(list []*syntax.Stmt, depth int) (ended []*Job, found bool) {
	paths := exitPaths{}
	var before []*Job
	for _, s := range list {
		if js, ok := w.exitKills(s, depth); ok {
			paths.add(append(slices.Clip(before), js...), true)
		}
		if w.exits(s, depth) == endsSurely {
			break
		}
		before = append(before, w.sureKills(s, depth)...)
	}
	return paths.ended, paths.found
}

// plainKill is the jobs that s, a plain `kill ARGS` (no && around it, not
// in the background), ends for sure: those it names that die of the
// signal, and that no subshell of theirs outlives (see walker.killed). A
// kill behind a guard on its pid is as plain (`[ -n "$P" ] && kill $P;
// exit 1`: see guard).
func (w *walker) plainKill(s *syntax.Stmt) []*Job {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && !s.Background && !s.Negated && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) && knowledge.IsCallOf(b.Y.Cmd, "kill") && guardsKill(b.X, b.Y, b.Op == syntax.AndStmt) {
		return w.plainKill(b.Y)
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || s.Coprocess || s.Negated || !knowledge.IsCallOf(ce, "kill") || w.fns.funcs["kill"] != nil {
		return nil
	}
	sig, ops, list := dialect.KillArgs(ce.Args[1:])
	if list || !terminates(sig) || w.jobsIgnore(sig) {
		return nil
	}
	named, all, _ := w.jobsNamed(ops)
	if all {
		named = w.sh.jobs // a pid the walk did not see saved, $(jobs -p)…
	}
	return slices.DeleteFunc(slices.Clone(named), func(j *Job) bool {
		// (mksh loses a kill right after the job's start: see killLost;
		// nothing that takes a while ran since, up to the exit either)
		return j.Kind != JobSimple || j.forks || j.RunsChildren || j.ignores(sig) || w.killLost(j, sig)
	})
}

// exitPaths gathers what each exit path of a statement killed: the jobs
// all of them killed.
type exitPaths struct {
	ended []*Job
	found bool
}

func (p *exitPaths) add(ended []*Job, found bool) {
	if !found {
		return
	}
	if !p.found {
		p.ended, p.found = slices.Clone(ended), true
		return
	}
	p.ended = slices.DeleteFunc(p.ended, func(j *Job) bool { return !slices.Contains(ended, j) })
}
