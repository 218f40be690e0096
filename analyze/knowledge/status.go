package knowledge

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Status tells the exit status of a statement when it is known without
// running it: 1 it succeeds, -1 it fails, 0 it depends. Only commands that
// cannot fail (true, :, a literal sleep, a trap of known signals) and
// false are known;
// anything that touches the world (cd, curl, a test) depends.
func Status(s *syntax.Stmt) int { return StatusIn(s, 0, nil) }

// MaxStatusDepth bounds how deep status looks into and-or lists and
// groups: the walk asks for the status of every prefix of a list (`a &&
// b && … && z`), which would make a long one quadratic. Deeper than this
// the status depends.
const MaxStatusDepth = 64

// StatusIn is status with calls, which knows the status of a call that
// callStatus does not (a function the script defines), if not nil.
func StatusIn(s *syntax.Stmt, depth int, calls func(*syntax.CallExpr) int) int {
	st := 0
	if depth > MaxStatusDepth {
		return 0
	}
	depth++
	if s.Background {
		return 1 // starting a job succeeds, whatever the job does
	}
	if !SafeRedirs(s.Redirs) {
		return 0 // a redirection can fail
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		st = callStatus(c)
		if st == 0 && calls != nil {
			st = calls(c)
		}
	case *syntax.Block:
		if n := len(c.Stmts); n > 0 {
			st = StatusIn(c.Stmts[n-1], depth, calls)
		}
	case *syntax.Subshell:
		if n := len(c.Stmts); n > 0 {
			st = StatusIn(c.Stmts[n-1], depth, calls)
		}
	case *syntax.BinaryCmd:
		x, y := StatusIn(c.X, depth, calls), StatusIn(c.Y, depth, calls)
		switch c.Op {
		case syntax.AndStmt: // fails if either fails; succeeds if both do
			switch {
			case x < 0 || y < 0:
				st = -1
			case x > 0 && y > 0:
				st = 1
			}
		case syntax.OrStmt: // succeeds if either does; fails if both fail
			switch {
			case x > 0 || y > 0:
				st = 1
			case x < 0 && y < 0:
				st = -1
			}
		}
	}
	if s.Negated {
		st = -st
	}
	return st
}

// SafeRedirs reports whether redirections cannot fail: closes, copies of
// the standard descriptors, /dev/null.
func SafeRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.Word == nil {
			return false
		}
		switch v := WordLit(r.Word); v {
		case "-", "0", "1", "2", "/dev/null":
		default:
			return false
		}
	}
	return true
}

func callStatus(c *syntax.CallExpr) int {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Value != nil && mayFailValue(a.Value) || a.Array != nil {
				return 0 // x=$(cmd) has cmd's status
			}
		}
		return 1 // pid=$! && …: an assignment of expanded values succeeds
	}
	r := Resolve(c.Args)
	if r.Wrapped || len(r.All) == 0 {
		return 0
	}
	switch r.Name {
	case "true", ":":
		return 1 // (not echo: it fails when its stdout is closed or broken)
	case "false":
		return -1
	case "sleep":
		if _, ok := SleepFor(r.Args); ok {
			return 1
		}
	case "trap":
		// Setting or resetting a trap (`trap - TERM`, `trap 'cmd' EXIT
		// INT`) succeeds for the signals every shell knows: `trap - TERM
		// && kill -- -$$` always kills.
		if len(r.Args) < 2 {
			return 0
		}
		for _, a := range r.Args[1:] {
			if !trapSignals.Has(strings.TrimPrefix(WordLit(a), "SIG")) {
				return 0
			}
		}
		return 1
	}
	return 0
}

// trapSignals are the conditions and signals that trap accepts in every
// shell (by name, without SIG, or number).
var trapSignals = SetOf(`EXIT INT TERM HUP QUIT USR1 USR2 ALRM PIPE CHLD 0 1 2 3 15`)

// mayFailValue reports whether an assigned value can give the assignment
// a status other than success: a command substitution (its status is the
// assignment's), arithmetic (a division by zero), ${x?}.
func mayFailValue(w *syntax.Word) bool {
	if PlainWord(w) {
		return false
	}
	fails := false
	Inspect(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			if !substSucceeds(n) {
				fails = true
			}
			return false
		case *syntax.ArithmExp, *syntax.ProcSubst:
			fails = true
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.ErrorUnset || n.Exp.Op == syntax.ErrorUnsetOrNull) {
				fails = true
			}
		}
		return !fails
	})
	return fails
}

// substSucceeds reports whether a command substitution's status is known to
// be success: its last command cannot fail, or it is an echo, or a printf
// of a literal format, into the substitution's pipe, which the shell reads to
// the end (`pid=$(server >log 2>&1 & echo $!) && kill $pid` kills).
func substSucceeds(cs *syntax.CmdSubst) bool {
	n := len(cs.Stmts)
	if n == 0 {
		return true
	}
	last := cs.Stmts[n-1]
	if ce, ok := last.Cmd.(*syntax.CallExpr); ok && len(last.Redirs) == 0 && !last.Negated && !last.Background && len(ce.Assigns) == 0 && len(ce.Args) > 0 {
		switch WordLit(ce.Args[0]) {
		case "echo":
			return true
		case "printf":
			return len(ce.Args) > 1 && PlainWord(ce.Args[1])
		}
	}
	return Status(last) > 0
}
