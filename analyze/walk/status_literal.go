package walk

import (
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A test whose operands the walk knows decides for sure: `[ 1 = 1 ]`, `[
// "$MODE" = dev ]` with MODE a constant of the script (see constVars), and
// `[ "$(uname)" = Linux ]`, which the analyzer, like its dialect table
// (dash as sh, procps kill, GNU timeout), answers for a Linux host. An if
// or && under such a test is no maybe (see walk_branchscope.go).

// host is what `uname` (and `uname -s`) prints on the hosts the model is for.
const host = "Linux"

// literalTestStatus is the status of s when it is a comparison of known
// operands by [, test or [[ (1 it holds, -1 it fails), else 0. (Where a
// shell refuses the test itself, testRefused has answered first.)
func (w *walker) literalTestStatus(s *syntax.Stmt) int {
	if st := w.emptyTestStatus(s); st != 0 {
		return st
	}
	var x, y *syntax.Word
	op := ""
	switch c := s.Cmd.(type) {
	case *syntax.TestClause:
		b, ok := c.X.(*syntax.BinaryTest)
		if !ok {
			return 0
		}
		x, _ = b.X.(*syntax.Word)
		y, _ = b.Y.(*syntax.Word)
		op = b.Op.String()
		if y != nil && strings.ContainsAny(w.wordValue(y), "*?[") {
			return 0 // a pattern
		}
	case *syntax.CallExpr:
		a, ok := w.testOperands(c)
		if !ok || len(a) != 3 {
			return 0
		}
		x, y, op = a[0], a[2], knowledge.WordLit(a[1])
	}
	if x == nil || y == nil {
		return 0
	}
	vx, vy := w.wordValue(x), w.wordValue(y)
	if vx == "" || vy == "" {
		return 0
	}
	holds, known := compareValues(vx, op, vy)
	if !known {
		return 0
	}
	if holds != s.Negated {
		return 1
	}
	return -1
}

// testOperands are the operands of `[ … ]` or `test …` (without the
// closing bracket); ok is false where c is neither.
func (w *walker) testOperands(c *syntax.CallExpr) (a []*syntax.Word, ok bool) {
	r := w.p.resolveCall(c)
	a = r.Args
	if r.Wrapped || len(c.Assigns) > 0 || r.Name != "[" && r.Name != "test" {
		return nil, false
	}
	if r.Name == "[" {
		if len(a) == 0 || knowledge.WordLit(a[len(a)-1]) != "]" {
			return nil, false
		}
		a = a[:len(a)-1]
	}
	return a, true
}

// compareValues applies a test's binary operator to known values.
func compareValues(x, op, y string) (holds, known bool) {
	switch op {
	case "=", "==":
		return x == y, true
	case "!=":
		return x != y, true
	}
	a, err1 := strconv.Atoi(x)
	b, err2 := strconv.Atoi(y)
	if err1 != nil || err2 != nil {
		return false, false
	}
	switch op {
	case "-eq":
		return a == b, true
	case "-ne":
		return a != b, true
	case "-lt":
		return a < b, true
	case "-le":
		return a <= b, true
	case "-gt":
		return a > b, true
	case "-ge":
		return a >= b, true
	}
	return false, false
}

// unameWord reports whether w is just `$(uname)`, `$(uname -s)` or the
// backquoted form, which prints host.
func unameWord(w *syntax.Word) bool {
	cs, ok := knowledge.SolePart(w).(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || !knowledge.IsCallOf(ce, "uname") {
		return false
	}
	return len(ce.Args) == 1 || len(ce.Args) == 2 && knowledge.WordLit(ce.Args[1]) == "-s"
}

// emptyTestStatus is the status of `[ -n "$X" ]` or `[ -z "$X" ]` (test,
// [[ ]]) where X holds nothing for sure (see shell.empty): `pids=$(jobs
// -p); if [ -n "$pids" ]; then kill $pids; wait $pids; fi` in zsh and
// dash, whose jobs -p lists nothing there, never runs its branch (and its
// `wait $pids` is no bare wait for every job). 0 where it is not such a
// test. Unquoted, `[ -n $X ]` is a one-word test that holds.
func (w *walker) emptyTestStatus(s *syntax.Stmt) int {
	var op string
	var x *syntax.Word
	quoted := false
	switch c := s.Cmd.(type) {
	case *syntax.TestClause:
		u, ok := c.X.(*syntax.UnaryTest)
		if !ok {
			return 0
		}
		x, _ = u.X.(*syntax.Word)
		op, quoted = u.Op.String(), true
	case *syntax.CallExpr:
		a, ok := w.testOperands(c)
		if !ok || len(a) != 2 {
			return 0
		}
		op, x = knowledge.WordLit(a[0]), a[1]
	}
	if x == nil || op != "-n" && op != "-z" {
		return 0
	}
	pe, q := loneParam(x)
	if pe == nil || !plainParam(pe) || !w.sh.empty[pe.Param.Value] || !q && !quoted {
		return 0
	}
	if (op == "-z") != s.Negated {
		return 1
	}
	return -1
}
