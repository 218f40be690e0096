package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// exitKind says whether running a statement in the current shell ends
// that shell (exit, or exec of a program) before the statements after it.
type exitKind uint8

const (
	endsNever  exitKind = iota
	endsMaybe           // `./tests || exit 1`: what follows may not run
	endsSurely          // `exit`, `{ …; exit 1; }`, `false || exit 1`
)

// exits tells whether s ends the shell it runs in. An exit inside a
// compound of the current shell ends it as a bare one does: `./tests ||
// exit 1; kill $!` leaves the server running when the tests fail, so the
// kill after it is a maybe, like one behind `&&`. A subshell, a job, a
// pipeline element or a substitution only end themselves. A function
// call ends the shell when its body does. depth bounds the look into
// functions (recursion).
func (w *walker) exits(s *syntax.Stmt, depth int) exitKind {
	if depth > maxNested {
		return endsNever
	}
	if badDup(s.Redirs, w.sh.d) {
		// dash, mksh: the command never runs (see badDupEffect); mksh's
		// error in a function only returns from it.
		if w.dupEnds(s) && (depth == 0 || !w.sh.d.FuncErrorReturns) {
			return endsSurely
		}
		return endsNever
	}
	if s.Background || s.Coprocess {
		return endsNever
	}
	if s.Negated && w.sh.errexit {
		sh, on := w.errexitOff() // (set -e ends nothing inside)
		k := w.exits(s, depth)
		errexitOn(sh, on)
		return k
	}
	if ends(s) {
		if knowledge.IsCallOf(s.Cmd, "return") && !w.returnEnds(depth) {
			return endsNever // the function's, not the shell's (see stmts)
		}
		return endsSurely
	}
	if len(w.src.Bad) > 0 && w.stmtBadSubst(s) {
		return endsSurely // dash: echo ${x[@]} says "Bad substitution"
	}
	if k := w.errexitExits(s, depth); k != endsNever {
		return k // set -e; … false (see walk_errexit.go)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if w.killEndsShell(c) {
			return endsSurely // kill $$ (see kill_self.go)
		}
		if found, _ := w.nestedMayKillParent(s, c); found {
			return endsMaybe // sh -c 'cd app && kill $PPID' (see walk_ppidkill.go)
		}
		if k, ok := w.evalExits(c, depth); ok {
			return k // eval 'exit 1' (see walk_evalexits.go)
		}
		execs, body := w.callEnds(c)
		if execs {
			return endsSurely // exec "$@": a program whatever the words
		}
		if body != nil {
			if !w.lookInto() {
				return endsMaybe // (see lookahead.go)
			}
			return w.exits(body, depth+1)
		}
	case *syntax.Block:
		return w.listExits(c.Stmts, depth)
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			if w.sh.d.LastPipeHere {
				return w.exits(lastPipeElem(c), depth) // zsh runs it itself
			}
			return endsNever // a pipeline: its elements are subshells
		}
		sh, on := w.errexitOff()
		x := w.exits(c.X, depth)
		errexitOn(sh, on)
		if x == endsSurely {
			return endsSurely
		}
		y := w.exits(c.Y, depth)
		switch st := w.status(c.X); {
		case st == 0:
			return max(x, min(y, endsMaybe))
		case (st > 0) == (c.Op == syntax.AndStmt):
			return max(x, y) // Y runs for sure
		}
		return x
	case *syntax.IfClause:
		all, any := true, false
		for ic := c; ic != nil; ic = ic.Else {
			st := 0
			if n := len(ic.Cond); n > 0 {
				st = w.condStatus(ic.Cond) // (if ! kill -0 $P: known, see probesAlive)
			}
			sh, on := w.errexitOff()
			k := w.listExits(ic.Cond, depth)
			errexitOn(sh, on)
			if st >= 0 {
				k = max(k, w.listExits(ic.Then, depth))
			}
			all = all && k == endsSurely
			any = any || k != endsNever
			if st > 0 {
				break // this branch runs: the ones after it never do
			}
			if ic.Else == nil && len(ic.Cond) > 0 {
				all = false // no else: no branch may run
			}
		}
		switch {
		case all:
			return endsSurely
		case any:
			return endsMaybe
		}
	case *syntax.WhileClause:
		sh, on := w.errexitOff()
		k := w.listExits(c.Cond, depth)
		errexitOn(sh, on)
		return min(max(k, w.listExits(c.Do, depth)), endsMaybe)
	case *syntax.ForClause:
		return min(w.listExits(c.Do, depth), endsMaybe)
	case *syntax.CaseClause:
		return w.caseExits(c, depth)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return w.exits(c.Stmt, depth)
		}
	case *syntax.Subshell:
		if found, _ := forkMayKill(c); found {
			return endsMaybe // (cd /tmp && kill $$): see walk_forkkill.go
		}
		if found, _ := w.subshellMayKillParent(c); found {
			return endsMaybe // (cd app && sh -c 'kill $PPID'): see walk_ppidkill.go
		}
	}
	return endsNever
}

// listExits is exits for a list run in order: the first statement that
// ends it for sure decides, a maybe before it makes the end a maybe only
// if nothing after ends it for sure.
func (w *walker) listExits(list []*syntax.Stmt, depth int) exitKind {
	k := endsNever
	for _, s := range list {
		switch w.exits(s, depth) {
		case endsSurely:
			return endsSurely
		case endsMaybe:
			k = endsMaybe
		}
	}
	return k
}

// execsSomething reports whether a simple command is exec with a command
// word, literal or not (`exec "$@"`, the last line of many entrypoints):
// the shell becomes that program. Bare exec only redirects.
func execsSomething(c *syntax.CallExpr) bool {
	return execWord(c) != -1
}

// execWord is the index of the first word after exec and its options
// in c (see execsSomething), -1 where c is no exec with a command word.
func execWord(c *syntax.CallExpr) int {
	if len(c.Args) == 0 || knowledge.WordLit(c.Args[0]) != "exec" {
		return -1
	}
	for i, a := range c.Args[1:] {
		switch o := knowledge.WordLit(a); {
		case o == "--":
			continue
		case o == "-a":
			return -1 // its argument follows; too rare to follow
		case len(o) > 1 && o[0] == '-':
			continue // -c, -l
		}
		return i + 1
	}
	return -1
}

// status is the statement's exit status as far as it is known (see
// status), with what the dialect knows: zsh, dash and mksh refuse `wait
// -n`, so `wait -n || exit 1` always exits there.
func (w *walker) status(s *syntax.Stmt) int {
	if !s.Background && badDup(s.Redirs, w.sh.d) {
		if s.Negated {
			return 1
		}
		return -1 // mksh: `cmd >&/dev/null && kill $!` never kills
	}
	st := knowledge.StatusIn(s, 0, w.callStatus)
	if w.trapRefused(s) {
		st = -1 // dash: trap … SIGINT EXIT says "bad trap"
		if s.Negated {
			st = 1
		}
	}
	if st == 0 && !s.Background && w.testRefused(s) {
		st = -1 // dash: "[[: not found", "[: a: unexpected operator"
		if s.Negated {
			st = 1
		}
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && st == 0 && !s.Background {
		st = w.missingStatus(ce, s.Negated) // dash: "source: not found"
	}
	if st == 0 && !s.Background {
		st = w.prevStatus(s) // [ $? -ne 0 ] after kill -0 $P
	}
	if st == 0 && !s.Background && knowledge.SafeRedirs(s.Redirs) {
		st = w.literalTestStatus(s) // [ "$(uname)" = Linux ]
	}
	if st == 0 && !s.Background && (w.groupKillFails(s) || w.specKillFails(s) || w.killGetsNoPid(s)) {
		st = -1
		if s.Negated {
			st = 1
		}
	}
	if st == 0 && knowledge.SafeRedirs(s.Redirs) && w.probesAlive(s) {
		st = 1 // kill -0 $P of a job that runs on
		if s.Negated {
			st = -1
		}
	}
	if st != 0 || w.sh.d.WaitOptions || s.Background {
		return st
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && knowledge.WordLit(ce.Args[0]) == "wait" {
		if o := knowledge.WordLit(ce.Args[1]); len(o) > 1 && o[0] == '-' {
			st = -1
			if s.Negated {
				st = 1
			}
		}
	}
	return st
}

// callStatus is the status of a call of a function the script defines
// for sure (no other definition may be in force), as its body says:
// `start() { server & }; start && kill $!` kills.
func (w *walker) callStatus(ce *syntax.CallExpr) int {
	if st := w.missingStatus(ce, false); st != 0 {
		return st // (inside an and-or list or a group: see status)
	}
	if len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return 0
	}
	if r := w.p.resolveCall(ce); w.callsFunc(r) && w.fns.funcs[r.Name].other == nil {
		return funcStatus(w.fns.funcs[r.Name].body)
	}
	return 0
}

// funcStatus is a function's status as far as its body says (see status):
// that of its last command, or of the literal return that ends it (a bare
// return has the status of the command before it), when no return before
// it may end the call.
func funcStatus(body *syntax.Stmt) int {
	b, ok := body.Cmd.(*syntax.Block)
	if !ok || len(body.Redirs) > 0 {
		return 0
	}
	list := b.Stmts
	n := len(list)
	if n == 0 {
		return 0
	}
	for _, s := range list[:n-1] {
		if returnsEarly(s) {
			return 0 // `if …; then return 1; fi; server &`: either
		}
	}
	last := list[n-1]
	ce, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || knowledge.WordLit(ce.Args[0]) != "return" || last.Background {
		return knowledge.Status(last)
	}
	st := 0
	switch {
	case len(ce.Args) == 1 && n > 1:
		st = knowledge.Status(list[n-2])
	case len(ce.Args) == 2 && knowledge.IsDigits(knowledge.WordLit(ce.Args[1])):
		st = -1
		if knowledge.WordLit(ce.Args[1]) == "0" {
			st = 1
		}
	}
	if last.Negated {
		st = -st
	}
	return st
}

// returnsEarly reports whether s holds a return anywhere.
func returnsEarly(s *syntax.Stmt) bool {
	return knowledge.Holds(s, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "return") })
}
