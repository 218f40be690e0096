package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A test of the status the command before it left is as known as that
// status: `ps -p $PID; if [ $? -ne 0 ]; then exit 1; fi` exits only once
// the server died, as `if ! ps -p $PID` does (see probesAlive), and so
// does `if [ $(kill -0 $PID; echo $?) -ne 0 ]`.

// prevStatus is the status of s when s compares the status of an earlier
// command with 0 (`[ $? -ne 0 ]`, `test "$?" = 0`, `[[ $? -eq 0 ]]`) and
// that status is known; 0 otherwise. The earlier command is w.prev for
// `$?`, or the command before the `echo $?` that ends a `$(…)`.
func (w *walker) prevStatus(s *syntax.Stmt) int {
	var x, y *syntax.Word
	var op string
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		a := c.Args
		switch {
		case len(a) == 5 && knowledge.WordLit(a[0]) == "[" && knowledge.WordLit(a[4]) == "]":
			x, op, y = a[1], knowledge.WordLit(a[2]), a[3]
		case len(a) == 4 && knowledge.WordLit(a[0]) == "test":
			x, op, y = a[1], knowledge.WordLit(a[2]), a[3]
		}
	case *syntax.TestClause:
		if b, ok := c.X.(*syntax.BinaryTest); ok {
			xw, xok := b.X.(*syntax.Word)
			yw, yok := b.Y.(*syntax.Word)
			if xok && yok {
				x, op, y = xw, b.Op.String(), yw
			}
		}
	}
	if x == nil || knowledge.WordLit(y) != "0" {
		return 0
	}
	var zero bool // the test succeeds when the status is 0
	switch op {
	case "-eq", "=", "==":
		zero = true
	case "-ne", "!=":
	default:
		return 0
	}
	prev := w.statusOf(x)
	if prev == nil {
		return 0
	}
	saved := w.prev
	w.prev = nil // (no chains: `a; [ $? = 0 ]; [ $? = 0 ]`)
	st := w.status(prev)
	w.prev = saved
	if st == 0 {
		return 0
	}
	if (st > 0) != zero {
		st = -1
	} else {
		st = 1
	}
	if s.Negated {
		st = -st
	}
	return st
}

// statusOf returns the command whose status word expands to: `$?` the one
// before (w.prev), `$(cmd; echo $?)` cmd.
func (w *walker) statusOf(word *syntax.Word) *syntax.Stmt {
	switch p := knowledge.SolePart(word).(type) {
	case *syntax.ParamExp:
		if p.Param != nil && p.Param.Value == "?" && p.Exp == nil && !p.Length {
			return w.prev
		}
		if p.Param != nil && plainParam(p) {
			return w.sh.statusVars[p.Param.Value] // status=$? (see status_vars.go)
		}
	case *syntax.CmdSubst:
		if n := len(p.Stmts); n >= 2 && echoesStatus(p.Stmts[n-1]) {
			return p.Stmts[n-2]
		}
	}
	return nil
}

// echoesStatus reports whether s is `echo $?` (or "$?").
func echoesStatus(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 2 || knowledge.WordLit(c.Args[0]) != "echo" || len(s.Redirs) > 0 {
		return false
	}
	pe, ok := knowledge.SolePart(c.Args[1]).(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "?" && pe.Exp == nil
}

// condStatus is the status of an if's or while's condition list: its last
// command's, with the command before it as w.prev.
func (w *walker) condStatus(cond []*syntax.Stmt) int {
	n := len(cond)
	if n == 0 {
		return 0
	}
	saved := w.prev
	if n > 1 {
		w.prev = cond[n-2]
	}
	st := w.status(cond[n-1])
	w.prev = saved
	return st
}
