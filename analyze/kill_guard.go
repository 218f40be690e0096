package analyze

import (
	"mvdan.cc/sh/v3/syntax"
)

// guardsKill reports whether `X && kill P` kills what `kill P` alone
// would: X fails only when the kill would end nothing. That is X asking
// whether the one process P is alive (`kill -0 $P`, `ps -p $P`) or whether
// P is set at all (`[ -n "$P" ]`, `test -n "$P"`, `[[ -n $P ]]`): when the
// process is gone or the variable empty, the kill ends nothing either.
// (A variable holding several pids, one of them gone, would make `kill -0
// $P` fail with the others alive; a pid variable is taken to hold one.)
// Cleanup code writes the guard so (`kill -0 "$pid" 2>/dev/null && kill
// "$pid"`); the kill runs for sure under bash, zsh, dash and mksh, where
// a guard of another kind (`curl … && kill $!`) leaves it a maybe.
func guardsKill(x, y *syntax.Stmt) bool {
	if x.Negated || x.Background || y.Negated || y.Background {
		return false
	}
	yc, ok := y.Cmd.(*syntax.CallExpr)
	if !ok || len(yc.Assigns) > 0 {
		return false
	}
	ry := resolve(yc.Args)
	if ry.name != "kill" || ry.wrapped {
		return false
	}
	sig, ops, list := killArgs(ry.args)
	if list || !terminates(sig) || len(ops) != 1 {
		return false
	}
	p := pidOperand(ops[0])
	if p == "" {
		return false
	}
	switch xc := x.Cmd.(type) {
	case *syntax.TestClause:
		u, ok := xc.X.(*syntax.UnaryTest)
		return ok && u.Op == syntax.TsNempStr && pidTestOperand(u.X) == p
	case *syntax.CallExpr:
		if len(xc.Assigns) > 0 {
			return false
		}
		rx := resolve(xc.Args)
		if rx.wrapped {
			return false
		}
		a := rx.args
		switch rx.name {
		case "kill":
			s, xops, list := killArgs(a)
			return !list && signalName(s) == "0" && len(xops) == 1 && pidOperand(xops[0]) == p
		case "ps":
			return len(a) == 2 && a[0].Lit() == "-p" && pidOperand(a[1]) == p
		case "[":
			if len(a) > 0 && a[len(a)-1].Lit() == "]" {
				a = a[:len(a)-1]
			} else {
				return false
			}
			fallthrough
		case "test":
			return len(a) == 2 && a[0].Lit() == "-n" && pidOperand(a[1]) == p
		}
	}
	return false
}

// pidOperand is the name of the variable a word is just the value of
// (`$pid`, `"${pid}"`, `$!`), a job spec (`%1`), or "".
func pidOperand(w *syntax.Word) string {
	if t := argText(w); len(t) > 1 && t[0] == '%' {
		return t
	}
	pe, ok := solePart(w).(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil || pe.Index != nil || pe.Length || pe.Width || pe.Excl || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 {
		return ""
	}
	return pe.Param.Value
}

// pidTestOperand is pidOperand for the operand of a [[ ]] test.
func pidTestOperand(e syntax.TestExpr) string {
	w, ok := e.(*syntax.Word)
	if !ok {
		return ""
	}
	return pidOperand(w)
}
