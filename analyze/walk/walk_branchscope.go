package walk

import (
	"bytes"
	"path"
	"slices"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Kills and waits in branches that may not run. A branch of an if or case
// whose condition the walk cannot decide, and a loop round that may not
// run, are maybes as the right of && is (see walk_scope.go): `server & if
// [ -f x ]; then kill $!; fi` leaves the server when x is missing, as `[
// -f x ] && kill $!` does (checked under bash, zsh, dash and mksh). A
// kill there is still sure where it does not matter which way the
// condition goes:
//   - every alternative ends the job too: `if ready; then kill $P; else
//     kill $P; exit 1; fi`, a case with a `*)` branch, an elif chain with
//     an else (each branch scope is then an exitScope naming the jobs that
//     every alternative kills or waits for, before any exit it takes);
//   - the condition asks about the pid the kill names (a guard: `if [ -n
//     "$P" ]; then kill $P; fi`, `if kill -0 $P; then kill $P; fi`, and
//     for the else branch the || forms, `if [ -z "$P" ]; then :; else
//     kill $P; fi`), or the loop runs a round per pid (`for p in $pids; do
//     kill $p; done`, `while read p; do kill $p; done < pids`): when it
//     runs no round there is no pid to kill;
//   - the job itself was started in that branch (its scope).
// A condition whose status is known (`if true`, `[ 1 = 1 ]`) is no maybe.

// branchIn enters a branch that may not run: ended are the jobs every
// alternative to it ends as well, g (if guarded) the guard its condition
// is. It returns what branchOut needs to leave it.
func (w *walker) branchIn(ended []*Job, g guard, guarded bool) branchMark {
	w.branching++
	return w.maybeIn(ended, g, guarded)
}

// branchOut leaves the branch branchIn entered.
func (w *walker) branchOut(m branchMark) {
	w.maybeOut(m)
	w.branching--
}

// maybeIn is branchIn for a later round of a loop, which is no branch
// for what a pid variable holds after it (it stands for the last round:
// see replacesPid).
func (w *walker) maybeIn(ended []*Job, g guard, guarded bool) branchMark {
	m := branchMark{exitScopes: len(w.ends.exitScopes), guards: len(w.guards)}
	w.condIn()
	if len(ended) > 0 {
		w.ends.exitScopes = append(w.ends.exitScopes, exitScope{scope: w.scope(), ended: ended})
	}
	if guarded {
		w.guards = append(w.guards, condGuard{g, w.cond})
	}
	return m
}

// branchMark is the walker's state before maybeIn.
type branchMark struct{ exitScopes, guards int }

// maybeOut leaves the maybe maybeIn entered.
func (w *walker) maybeOut(m branchMark) {
	w.condOut()
	w.ends.exitScopes = w.ends.exitScopes[:m.exitScopes]
	w.guards = w.guards[:m.guards]
}

// roundTakes reports whether some round of the innermost for loop over
// literal words takes the case branch it: the case word is the loop's
// variable and one of the words matches one of its patterns (`for a in
// start test stop; do case $a in start) …;; stop) kill $PID;; esac;
// done`). Such a branch runs for sure, in its round.
func (w *walker) roundTakes(word *syntax.Word, it *syntax.CaseItem) bool {
	n := len(w.wordLoops)
	if n == 0 || it.Op != syntax.Break {
		return false
	}
	l := w.wordLoops[n-1]
	if pe, ok := knowledge.SolePart(word).(*syntax.ParamExp); !ok || !plainParam(pe) || pe.Param.Value != l.Name.Value {
		return false
	}
	for _, p := range it.Patterns {
		pat := knowledge.Value(p)
		for _, v := range l.Items {
			if ok, err := path.Match(pat, knowledge.WordLit(v)); pat != "" && err == nil && ok {
				return true
			}
		}
	}
	return false
}

// condGuardOf reads the last command of an if's condition as a guard of
// its then branch (and) or of its else branch.
func condGuardOf(cond []*syntax.Stmt, and bool) (guard, bool) {
	if len(cond) == 0 {
		return guard{}, false
	}
	return guardOf(cond[len(cond)-1], and)
}

// loopGuard is the guard of a loop that runs a round per pid: the variable
// of `for p in …` or of `while read p`, which a kill of $p names.
func loopGuard(c syntax.Command) (guard, bool) {
	switch c := c.(type) {
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok && wi.Name != nil {
			return guard{key: wi.Name.Value}, true
		}
	case *syntax.WhileClause:
		if n := len(c.Cond); n > 0 && !c.Until {
			if ce, ok := c.Cond[n-1].Cmd.(*syntax.CallExpr); ok && knowledge.IsCallOf(ce, "read") && len(ce.Args) == 2 {
				return guard{key: knowledge.WordLit(ce.Args[1])}, knowledge.WordLit(ce.Args[1]) != ""
			}
		}
	}
	return guard{}, false
}

// mayEndJobs reports whether the text of s has a kill or wait in it (or
// the script has functions, whose calls may): only then is it worth
// looking for what every branch of it ends.
func (w *walker) mayEndJobs(s syntax.Node) bool {
	start, end := int(s.Pos().Offset()), int(s.End().Offset())
	if start < 0 || end > len(w.src.Text) || start > end {
		return true
	}
	t := w.src.Text[start:end]
	return len(w.fns.funcs) > 0 || bytes.Contains(t, []byte("kill")) || bytes.Contains(t, []byte("wait"))
}

// elseEnds is what every path through the else part of an if (an elif
// chain, an else, or nothing) ends for sure.
func (w *walker) elseEnds(ic *syntax.IfClause, depth int) []*Job {
	if ic == nil {
		return nil // no else: the if may run no branch
	}
	if len(ic.Cond) == 0 {
		return w.listEnds(ic.Then, depth)
	}
	return union(w.listEnds(ic.Cond, depth), w.ifEnds(ic, depth))
}

// ifEnds is what every branch of the if from ic on ends for sure (its
// condition aside).
func (w *walker) ifEnds(ic *syntax.IfClause, depth int) []*Job {
	then := w.listEnds(ic.Then, depth)
	if len(then) == 0 {
		return nil
	}
	return intersect(then, w.elseEnds(ic.Else, depth))
}

// caseEnds is what every branch of a case ends for sure: nothing unless
// one branch matches anything (`*)`) and none falls through.
func (w *walker) caseEnds(c *syntax.CaseClause, depth int) []*Job {
	catchAll := false
	for _, it := range c.Items {
		if it.Op != syntax.Break {
			return nil
		}
		for _, p := range it.Patterns {
			catchAll = catchAll || knowledge.WordLit(p) == "*"
		}
	}
	if !catchAll {
		return nil
	}
	var ended []*Job
	for i, it := range c.Items {
		js := w.listEnds(it.Stmts, depth)
		if i == 0 {
			ended = js
		} else {
			ended = intersect(ended, js)
		}
		if len(ended) == 0 {
			return nil
		}
	}
	return ended
}

// listEnds is the jobs that every path through list kills or waits for
// with a plain kill or wait (see plainKill), before it leaves the list
// or ends the shell. depth bounds the look into functions.
func (w *walker) listEnds(list []*syntax.Stmt, depth int) []*Job {
	if depth > maxNested {
		return nil
	}
	var ended []*Job
	for _, s := range list {
		ended = union(ended, w.stmtEnds(s, depth))
		if (w.ends.exitFuncs || w.sh.errexit || mentionsExit(w.src.Text, s, w.sh.d)) && w.exits(s, depth) == endsSurely {
			js, _ := w.exitKills(s, depth)
			return union(ended, js)
		}
	}
	return ended
}

// stmtEnds is the jobs s surely kills or waits for (see listEnds).
func (w *walker) stmtEnds(s *syntax.Stmt, depth int) []*Job {
	if s.Background || s.Coprocess || s.Negated {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if js := w.plainKill(s); len(js) > 0 {
			return js
		}
		if js := w.plainWait(c); len(js) > 0 {
			return js
		}
		if r := w.p.resolveCall(c); len(c.Args) > 0 && w.callsFunc(r) {
			if b, ok := w.fns.funcs[r.Name].body.Cmd.(*syntax.Block); ok && w.lookInto() {
				return w.listEnds(b.Stmts, depth+1)
			}
		}
	case *syntax.Block:
		return w.listEnds(c.Stmts, depth)
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return w.stmtEnds(c.X, depth) // (X runs for sure)
		}
	case *syntax.IfClause:
		return union(w.listEnds(c.Cond, depth), w.ifEnds(c, depth))
	case *syntax.CaseClause:
		return w.caseEnds(c, depth)
	}
	return nil
}

// plainWait is the jobs a plain `wait` or `wait PIDS` (no options) waits
// for: the shell's own, not disowned.
func (w *walker) plainWait(c *syntax.CallExpr) []*Job {
	if !knowledge.IsCallOf(c, "wait") || w.fns.funcs["wait"] != nil {
		return nil
	}
	for _, a := range c.Args[1:] {
		if t := knowledge.WordLit(a); len(t) > 1 && t[0] == '-' {
			return nil
		}
	}
	named, all, any := w.jobsNamed(c.Args[1:])
	if !any || all {
		named = w.sh.jobs
	}
	return slices.DeleteFunc(slices.Clone(named), func(j *Job) bool {
		return j.disowned || j.Kind != JobSimple || !w.sh.owns(j)
	})
}

func union(a, b []*Job) []*Job {
	for _, j := range b {
		if !slices.Contains(a, j) {
			a = append(a, j)
		}
	}
	return a
}

func intersect(a, b []*Job) []*Job {
	var out []*Job
	for _, j := range a {
		if slices.Contains(b, j) {
			out = append(out, j)
		}
	}
	return out
}
