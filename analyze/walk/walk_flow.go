package walk

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// How much of a loop or case runs, as far as the text says. A loop whose
// condition is known to let it in (`while true`, `while sleep 1`, `until
// false`, `for ((i = 0; i < 3; i++))`, a for over literal words) runs its
// first round for sure, up to the first statement that may leave the round
// (a break or continue, also behind && or in an if): `while true; do
// server & break; done; kill $!` stops the server in every shell. A plain
// break or continue ends the round, and a plain break ends the loop: no
// second round follows it. A case whose branch is known runs the branches
// that branch falls through to with ;& as well (see caseBranch).

// entersLoop reports whether a while or until loop's condition lets it
// into its first round for sure.
func (w *walker) entersLoop(c *syntax.WhileClause) bool {
	n := len(c.Cond)
	if n == 0 {
		return false
	}
	st := w.status(c.Cond[n-1])
	if c.Until {
		return st < 0
	}
	return st > 0
}

// cLoopRounds is how many rounds a C-style for loop runs, counted up to
// two (more are as a second), when its header says it: a variable set to
// a number, compared with a number, and stepped by a constant
// (`for ((i=0; i<3; i++))`). known is false otherwise.
func cLoopRounds(l *syntax.CStyleLoop) (n int, known bool) {
	init, ok := l.Init.(*syntax.BinaryArithm)
	if !ok || init.Op != syntax.Assgn {
		return 0, false
	}
	cond, ok := l.Cond.(*syntax.BinaryArithm)
	if !ok {
		return 0, false
	}
	name := arithLit(init.X)
	i, err1 := strconv.Atoi(arithLit(init.Y))
	limit, err2 := strconv.Atoi(arithLit(cond.Y))
	step, ok := cLoopStep(l.Post, name)
	if name == "" || arithLit(cond.X) != name || err1 != nil || err2 != nil || !ok {
		return 0, false
	}
	for n = 0; n < 2; n++ {
		switch cond.Op {
		case syntax.Lss:
			ok = i < limit
		case syntax.Leq:
			ok = i <= limit
		case syntax.Gtr:
			ok = i > limit
		case syntax.Geq:
			ok = i >= limit
		case syntax.Neq:
			ok = i != limit
		default:
			return 0, false
		}
		if !ok {
			break
		}
		i += step
	}
	return n, true
}

// cLoopStep is what a C-style loop's step adds to the variable name:
// i++, ++i, i--, --i, i+=N, i-=N.
func cLoopStep(post syntax.ArithmExpr, name string) (int, bool) {
	switch p := post.(type) {
	case *syntax.UnaryArithm:
		if arithLit(p.X) != name {
			return 0, false
		}
		switch p.Op {
		case syntax.Inc:
			return 1, true
		case syntax.Dec:
			return -1, true
		}
	case *syntax.BinaryArithm:
		d, err := strconv.Atoi(arithLit(p.Y))
		if arithLit(p.X) != name || err != nil {
			return 0, false
		}
		switch p.Op {
		case syntax.AddAssgn:
			return d, true
		case syntax.SubAssgn:
			return -d, true
		}
	}
	return 0, false
}

// arithLit is the literal text of an arithmetic operand, or "".
func arithLit(x syntax.ArithmExpr) string {
	if wd, ok := x.(*syntax.Word); ok {
		return knowledge.WordLit(wd)
	}
	return ""
}

// firstRound walks the first round of a loop's body and returns the
// shell's descriptors after the part of it that runs for sure (an `exec
// 2>/dev/null` there redirects the shell for good); sure: the loop is
// entered for sure (see entersLoop). The rest is a branch that may not
// run (see walk_branchscope.go), under g if the loop runs a round per pid,
// whose alternative, a break, may leave its jobs to a kill in follow,
// what runs after the loop (see walk_breakkills.go).
func (w *walker) firstRound(body []*syntax.Stmt, env fdtable.Table, sure bool, g guard, guarded bool, follow []*syntax.Stmt) fdtable.Table {
	body = roundRuns(body)
	i := 0
	if sure {
		i = slices.IndexFunc(body, mayLeaveRound)
		if i < 0 {
			i = len(body)
		}
	}
	env = w.stmts(body[:i], env)
	if i < len(body) {
		var ended []*Job
		if sure {
			ended = w.breakKills(body[i], follow)
		}
		m := w.branchIn(ended, g, guarded) // the first round may not run, or may be left early
		w.stmts(body[i:], env)
		w.branchOut(m)
	}
	return env
}

// maxLaterRounds bounds how many loops' later rounds the walk is inside
// at once. Each loop walks its body twice, so loops nested n deep would
// walk the innermost body 2^n times (twenty-four nested loops took more
// than a gigabyte); with the bound it is walked n+1 times. A loop inside
// another's later round has had its own later round walked already, in
// the other's first round, so its findings are there; what the walk
// leaves out is the state a later round of both would leave, the same
// jobs started once more.
const maxLaterRounds = 1

// laterRound walks a round after the first (see repeats): unless a plain
// break ends the first round, and with it the loop. Unless the loop
// surely runs two rounds (sure), the round may not run: a branch (see
// walk_branchscope.go).
func (w *walker) laterRound(cond, body []*syntax.Stmt, env fdtable.Table, sure bool, g guard, guarded bool) {
	if i := plainLeave(body); i >= 0 && leaveWord(body[i]) == "break" {
		return
	}
	if w.again >= maxLaterRounds {
		return
	}
	w.again++
	if !sure {
		m := w.maybeIn(nil, g, guarded)
		defer w.maybeOut(m)
	}
	sh, on := w.errexitOff() // (see walk_errexit.go)
	w.stmts(cond, env)
	errexitOn(sh, on)
	w.stmts(roundRuns(body), env)
	w.again--
}

// roundRuns is the part of a round's body before a plain break or
// continue, which ends the round: nothing after it runs.
func roundRuns(body []*syntax.Stmt) []*syntax.Stmt {
	if i := plainLeave(body); i >= 0 {
		return body[:i]
	}
	return body
}

// plainLeave is the index of the first statement of body that is a plain
// break or continue, or -1.
func plainLeave(body []*syntax.Stmt) int {
	return slices.IndexFunc(body, func(s *syntax.Stmt) bool { return leaveWord(s) != "" })
}

// leaveWord is "break" or "continue" for such a statement, else "".
func leaveWord(s *syntax.Stmt) string {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || s.Background || s.Negated {
		return ""
	}
	switch v := knowledge.WordLit(ce.Args[0]); v {
	case "break", "continue":
		return v
	}
	return ""
}

// mayLeaveRound reports whether s holds a break or continue anywhere.
func mayLeaveRound(s *syntax.Stmt) bool {
	return knowledge.Holds(s, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		return ok && leaveWord(st) != ""
	})
}

// fallsThrough is the branches that run from the first of items on: each
// that ends with ;& runs the next (bash, zsh, mksh).
func fallsThrough(items []*syntax.CaseItem) ([]*syntax.CaseItem, bool) {
	for i, it := range items {
		switch it.Op {
		case syntax.Break:
			return items[:i+1], true
		case syntax.Fallthrough:
		default:
			return nil, false // ;;& and mksh's ;| go on matching
		}
	}
	return items, true
}

// caseBranch picks the branches a case runs when that is known: the
// word's value is known (see caseWordValue; with vars false, a literal
// only) and the patterns before the match are literals (`*` matches
// anything): the matching branch, and after it each branch a ;& falls
// through to, up to one that ends with ;; (;;& goes on matching: not
// known). known is false otherwise; no items with known true means no
// branch runs.
func (w *walker) caseBranch(c *syntax.CaseClause, vars bool) (items []*syntax.CaseItem, known bool) {
	word, ok := knowledge.Value(c.Word), knowledge.Value(c.Word) != ""
	if !ok && vars {
		word, ok = w.caseWordValue(c.Word)
	}
	if !ok || strings.ContainsAny(word, "*?[") {
		return nil, false
	}
	for i, it := range c.Items {
		for _, pat := range it.Patterns {
			switch p := knowledge.Value(pat); {
			case p == "" || p != "*" && strings.ContainsAny(p, "*?["):
				return nil, false // an expansion or a glob: which branch runs is not known
			case p != "*" && p != word:
				continue
			}
			return fallsThrough(c.Items[i:])
		}
	}
	return nil, true
}

// caseExits is exits for a case. When the branches it runs are known,
// they decide, in order. Otherwise any branch may run: the case ends the
// shell for sure only if some branch is sure to match (a `*)` pattern)
// and it and every branch before it end the shell (`case $1 in a) exit
// 1;; *) exit 2;; esac`); else each one that may end it is a maybe.
func (w *walker) caseExits(c *syntax.CaseClause, depth int) exitKind {
	if its, known := w.caseBranch(c, depth == 0); known {
		k := endsNever
		for _, it := range its {
			switch w.listExits(it.Stmts, depth) {
			case endsSurely:
				return endsSurely
			case endsMaybe:
				k = endsMaybe
			}
		}
		return k
	}
	all, any, matched := true, false, false
	for _, it := range c.Items {
		k := w.listExits(it.Stmts, depth)
		any = any || k != endsNever
		if !matched {
			all = all && k == endsSurely
			matched = slices.ContainsFunc(it.Patterns, func(p *syntax.Word) bool { return knowledge.WordLit(p) == "*" })
		}
	}
	switch {
	case all && matched:
		return endsSurely
	case any:
		return endsMaybe
	}
	return endsNever
}

func (w *walker) loopHeader(l syntax.Loop, env fdtable.Table) {
	switch l := l.(type) {
	case *syntax.WordIter:
		w.words(l.Items, env)
		w.loopPids(l)
	case *syntax.CStyleLoop:
		w.nodeSubsts(l, env)
	}
}

// repeats reports whether a for loop may run its body more than once: a
// list of two words or more, or one that expands to an unknown number
// (a variable, a glob, "$@", a C-style loop).
func repeats(l syntax.Loop) bool {
	wi, ok := l.(*syntax.WordIter)
	if !ok || !wi.InPos.IsValid() {
		return true // for ((…)), for x (over "$@")
	}
	if len(wi.Items) != 1 {
		return len(wi.Items) > 1
	}
	lit := knowledge.WordLit(wi.Items[0])
	return lit == "" || strings.ContainsAny(lit, "*?[")
}

// runsOnce reports whether a for loop runs its body at least once: a
// list of words that are all literal (`for s in api worker`).
func runsOnce(l syntax.Loop) bool {
	wi, ok := l.(*syntax.WordIter)
	if !ok || !wi.InPos.IsValid() || len(wi.Items) == 0 {
		return false
	}
	for _, it := range wi.Items {
		if knowledge.WordLit(it) == "" {
			return false
		}
	}
	return true
}

// neverLoops reports whether a loop's condition is literally one that
// ends it before the first round: `while false`, `until true`, `until :`.
func neverLoops(c *syntax.WhileClause) bool {
	if len(c.Cond) != 1 {
		return false
	}
	s := c.Cond[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 1 || s.Background || len(s.Redirs) > 0 {
		return false
	}
	stop := knowledge.WordLit(ce.Args[0]) == "false"
	if c.Until {
		stop = knowledge.WordLit(ce.Args[0]) == "true" || knowledge.WordLit(ce.Args[0]) == ":"
	}
	return stop != s.Negated
}

// ifClause walks an if and returns the shell's descriptors after it. A
// condition whose status is known (true, false, :) decides for sure: `if
// false; then server & fi` starts nothing, after `if true` the else
// branches never run, and an exec redirection in a branch that runs for
// sure redirects the shell for good. The branches that may run are
// alternatives for $! (see branchSet); an exec in one of them may not
// have happened, so the descriptors before it are kept (they are the ones
// that can hang the caller).
func (w *walker) ifClause(c *syntax.IfClause, env fdtable.Table) fdtable.Table {
	b := w.branches()
	ran, fallThrough := 0, true
	outer := w.apart
	ends := w.mayEndJobs(c)
	var elses []branchMark // the else parts entered (see walk_branchscope.go)
	for ic := c; ic != nil; ic = ic.Else {
		st := 1 // an else runs when every condition before it failed
		if len(ic.Cond) > 0 {
			sh, on := w.errexitOff() // (see walk_errexit.go)
			w.stmts(ic.Cond, env)
			errexitOn(sh, on)
			if w.stopped() {
				break // the condition ended the shell ([ "$x" == y ] in zsh)
			}
			st = w.condStatus(ic.Cond)
		}
		if st < 0 {
			continue // the branch never runs
		}
		if st > 0 && ran == 0 {
			// Every condition before this one failed for sure.
			w.apart = outer
			return w.stmts(ic.Then, env)
		}
		b.start()
		n := len(w.p.Jobs)
		if st > 0 {
			w.stmts(ic.Then, env) // runs whenever the else part it is in does
		} else {
			var ended []*Job
			if ends {
				ended = w.ifEnds(ic, 0)
			}
			g, guarded := condGuardOf(ic.Cond, true)
			m := w.branchIn(ended, g, guarded)
			w.stmts(ic.Then, env)
			w.branchOut(m)
			if ic.Else != nil {
				g, guarded := condGuardOf(ic.Cond, false)
				elses = append(elses, w.branchIn(ended, g, guarded))
			}
		}
		w.apartFrom(n)
		b.end()
		ran++
		if st > 0 {
			fallThrough = false // no branch after this one runs
			break
		}
	}
	for i := len(elses) - 1; i >= 0; i-- {
		w.branchOut(elses[i])
	}
	w.apart = outer
	if ran > 0 {
		b.done(fallThrough)
	}
	return env
}
