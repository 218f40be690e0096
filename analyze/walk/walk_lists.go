package walk

import (
	"bytes"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Lists: statements in order, the exits that end a list (or may), and
// and-or lists.

// mentionsExit reports whether the text of s in src has an exit or an
// exec in it: without one (and without a function that has one), s
// cannot end the shell (see exits).
func mentionsExit(src []byte, s *syntax.Stmt, d *dialect.Dialect) bool {
	start, end := int(s.Pos().Offset()), int(s.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return true
	}
	return hasExitWord(src[start:end], d)
}

// hasExitWord reports whether text has exit, exec or eval (whose code may
// come from a variable) in it anywhere, a
// return where one outside a function ends the shell (see
// walk_return.go), a kill that may reach the shell itself, or in dash
// and mksh a dup that may fail (see badDupEffect).
func hasExitWord(text []byte, d *dialect.Dialect) bool {
	return bytes.Contains(text, []byte("exit")) || bytes.Contains(text, []byte("exec")) || bytes.Contains(text, []byte("eval")) ||
		!d.ReturnOutsideFails && bytes.Contains(text, []byte("return")) ||
		d.BadDup != dialect.DupOpensFile && hasBadDupText(text) || hasSelfKillText(text, d)
}

// hasSelfKillText reports whether text has a kill with an operand that
// may name the shell's own process (see kill_self.go): $$, 0, a pgrep, or
// in zsh $!, on the kill's own line, up to the end of its command.
func hasSelfKillText(text []byte, d *dialect.Dialect) bool {
	for {
		i := bytes.Index(text, []byte("kill"))
		if i < 0 {
			return false
		}
		text = text[i+4:]
		end := bytes.IndexAny(text, "\n;&|)")
		if end < 0 {
			end = len(text)
		}
		args := text[:end]
		if bytes.Contains(args, []byte("$$")) || bytes.Contains(args, []byte("{$}")) || bytes.Contains(args, []byte("pgrep")) || bytes.Contains(args, []byte("$(ps ")) || bytes.Contains(args, []byte("PPID")) ||
			bytes.HasSuffix(args, []byte(" 0")) || bytes.Contains(args, []byte(" 0 ")) || d.BangZero && bytes.Contains(args, []byte("$!")) {
			return true
		}
	}
}

func (w *walker) stmts(list []*syntax.Stmt, env fdtable.Table) fdtable.Table {
	maybe, returned := 0, 0
	outer, next, guards := w.prev, w.next, len(w.guards)
	var prev *syntax.Stmt
	for i := 0; i < len(list); i++ {
		s := list[i]
		w.prev = prev
		w.next = loopFollow{s, list[i+1:]}
		first := len(w.p.Jobs)
		env = w.stmt(s, env)
		w.prev = prev
		if always := w.alwaysBlock(list, i); always != nil && w.alwaysFirst() {
			// zsh: a function's try block's exit or return waits for its
			// always block (see zsh_always.go)
			env = w.stmt(always, env)
			i++
			if w.afterExit(always, first, &maybe) {
				break
			}
		}
		if w.afterExit(s, first, &maybe) || w.trapErrexitEnds(list, s) || w.nestedErrexitEnds(list, s) {
			break // the shell never runs what follows
		}
		if w.afterReturn(s, &returned) {
			break // the function returns (see walk_return.go)
		}
		prev = s
	}
	w.prev, w.next = outer, next
	if maybe > 0 {
		w.exitCondOut()
	}
	if returned > 0 {
		w.condOut()
	}
	w.guards = w.guards[:guards] // (see guardBehind)
	return env
}

// afterExit reports whether the statement just walked ends the shell for
// sure; after one that may end it, what follows is a maybe (w.cond, and
// *maybe counts it for the caller to undo at the end of the list), but
// for the jobs from first on that it started only on paths that stay
// (see walk_staystarts.go). A return ends the list (a function body)
// without ending the shell.
func (w *walker) afterExit(s *syntax.Stmt, first int, maybe *int) bool {
	if w.stopped() || ends(s) && !w.returnFails(s) {
		return true
	}
	if !w.ends.exitFuncs && !w.sh.errexit && (!w.src.mentionsExit(w.sh.d) || !mentionsExit(w.src.Text, s, w.sh.d)) && !w.src.badWithin(s) {
		return false // spares exits a walk of every compound, at every level
	}
	switch w.exits(s, 0) {
	case endsSurely:
		return true
	case endsMaybe:
		old, renewed := w.scope(), *maybe > 0
		if !renewed {
			*maybe = 1
			w.condIn()
			w.ends.exitLevels = append(w.ends.exitLevels, len(w.scopes)-1)
		} else {
			w.condRenew()
		}
		w.noteExitKills(s, old, renewed)
		w.startedOnStay(s, first)
		w.noteExitRaces()
		w.guardBehind(s)
	}
	return false
}

// andOr walks `X && Y` or `X || Y` in the current shell and returns its
// descriptors afterwards. Y runs if X succeeds (&&) or fails (||): when
// X's status is known, Y runs for sure or never; otherwise what Y does to
// the jobs (kill, wait) may not happen, and an exec in it may not have
// redirected the shell (the descriptors before it are kept: they are the
// ones that can hang the caller).
func (w *walker) andOr(c *syntax.BinaryCmd, env fdtable.Table) fdtable.Table {
	n := len(w.p.Jobs)
	sh, on := w.errexitOff() // (see walk_errexit.go)
	env = w.stmt(c.X, env)
	errexitOn(sh, on)
	if w.stopped() || w.dupEnds(c.X) {
		return env // X ended the shell: Y never runs
	}
	switch st := w.status(c.X); {
	case st == 0 && guardsKill(c.X, c.Y, c.Op == syntax.AndStmt):
		env = w.stmt(c.Y, env) // kill -0 $P && kill $P: as sure as the kill
	case st == 0 && guardsKillBlock(c.X, c.Y, c.Op == syntax.AndStmt):
		// [ -f F ] && { kill $(cat F); rm F; }: the kill as sure, what
		// follows it a maybe
		b := c.Y.Cmd.(*syntax.Block)
		env = w.stmt(b.Stmts[0], env)
		w.cond++
		w.stmts(b.Stmts[1:], env)
		w.cond--
	case st == 0:
		w.condIn()
		if c.Op == syntax.AndStmt && len(w.p.Jobs) > n && w.failsWithoutJobs(c.X) {
			for _, j := range w.p.Jobs[n:] {
				j.scope = w.scope() // Y runs whenever X's jobs exist
			}
		}
		g, guarded := guardOf(c.X, c.Op == syntax.AndStmt)
		if guarded {
			w.guards = append(w.guards, condGuard{g, w.cond})
		}
		w.stmt(c.Y, env)
		if guarded {
			w.guards = w.guards[:len(w.guards)-1]
		}
		w.condOut()
	case (st > 0) == (c.Op == syntax.AndStmt):
		env = w.stmt(c.Y, env)
	}
	return env
}

// andOrLastInBackground walks zsh's `A && B &`: A in the foreground, and
// B, the last pipeline, as the job if it runs (see bgLastPipeline).
func (w *walker) andOrLastInBackground(s *syntax.Stmt, c *syntax.BinaryCmd, env fdtable.Table) fdtable.Table {
	last := *c.Y
	last.Background, last.Disown, last.Semicolon = s.Background, s.Disown, s.Semicolon
	n := len(w.p.Jobs)
	env = w.andOr(&syntax.BinaryCmd{Op: c.Op, OpPos: c.OpPos, X: c.X, Y: &last}, env)
	for _, j := range w.p.Jobs[n:] {
		if j.Stmt == &last {
			// The job is the list's for a plan (Job.Head): a direct
			// statement of the script if the list is one.
			j.LastOfList, j.Head = true, w.src.Outer(int(s.Pos().Offset()))
			j.TopLevel = w.job == nil && w.sh.kind == shTop && !j.InNested && w.p.isTop(s)
		}
	}
	return env
}

// ends reports whether a statement unconditionally ends the list it is in:
// `exit`, `return`, or `exec` with a program, run in the foreground.
func ends(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || s.Negated {
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	switch knowledge.WordLit(ce.Args[0]) {
	case "exit", "return":
		return true
	case "exec":
		r := knowledge.Resolve(ce.Args)
		return len(r.All) > 0
	}
	return false
}
