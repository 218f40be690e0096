package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// guardsKill reports whether `X && kill P` (and = true) or `X || kill P`
// kills what `kill P` alone would: X fails (succeeds) only when the kill
// would end nothing. That is X asking whether the one process P is alive
// (`kill -0 $P`, `ps -p $P`) or whether P is set at all (`[ -n "$P" ]`,
// `[ "$P" ]`, `test -n`, `[[ $P ]]`; with || `[ -z "$P" ]`; P may be a
// substitution, `[ -n "$(jobs -p)" ] && kill $(jobs -p)`): when the
// process is gone or the operand empty, the kill ends nothing either. (A
// variable holding several pids, one of them gone, would make `kill -0
// $P` fail with the others alive; a pid variable is taken to hold one.)
// Cleanup code writes the guard so (`kill -0 "$pid" 2>/dev/null && kill
// "$pid"`); the kill runs for sure under bash, zsh, dash and mksh, where
// a guard of another kind (`curl … && kill $!`) leaves it a maybe.
func guardsKill(x, y *syntax.Stmt, and bool) bool {
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
	p := operandKey(ops[0])
	if p == "" {
		return false
	}
	// emptyTest: the test op on w (-n, -z, or none for `[ w ]`) fails
	// (&&) or succeeds (||) only when w is empty.
	emptyTest := func(op string, w *syntax.Word) bool {
		nonEmpty := op == "-n" || op == ""
		return (op == "-z" || nonEmpty) && nonEmpty == and && operandKey(w) == p
	}
	switch xc := x.Cmd.(type) {
	case *syntax.TestClause:
		switch t := xc.X.(type) {
		case *syntax.UnaryTest:
			w, ok := t.X.(*syntax.Word)
			op := map[syntax.UnTestOperator]string{syntax.TsNempStr: "-n", syntax.TsEmpStr: "-z"}[t.Op]
			return ok && op != "" && emptyTest(op, w)
		case *syntax.Word:
			return emptyTest("", t)
		}
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
			return and && !list && signalName(s) == "0" && len(xops) == 1 && pidOperand(xops[0]) != "" && operandKey(xops[0]) == p
		case "ps":
			// ps -p PID, with output options (-o pid=): it fails when no
			// such process exists.
			if !and || len(a) < 2 || wordLit(a[0]) != "-p" || pidOperand(a[1]) == "" || operandKey(a[1]) != p {
				return false
			}
			for i := 2; i < len(a); i++ {
				switch o := wordLit(a[i]); {
				case o == "-o" || o == "--format":
					i++ // the format
				case strings.HasPrefix(o, "-o") || strings.HasPrefix(o, "--format="), psFormats.has(o):
				default:
					return false // -u root, -C name…: more processes to find
				}
			}
			return true
		case "[":
			if len(a) == 0 || wordLit(a[len(a)-1]) != "]" {
				return false
			}
			a = a[:len(a)-1]
			fallthrough
		case "test":
			switch len(a) {
			case 1:
				return emptyTest("", a[0])
			case 2:
				return emptyTest(wordLit(a[0]), a[1])
			}
		}
	}
	return false
}

// operandKey is what a kill operand or test operand expands, for telling
// two of them the same: the variable a word is just the value of
// (`$pid`, `"${pid}"`, `$!`), a job spec, or the source of a lone command
// substitution (`$(jobs -p)`, quoted or not); "" for anything else.
func operandKey(w *syntax.Word) string {
	if p := pidOperand(w); p != "" {
		return p
	}
	cs, ok := solePart(w).(*syntax.CmdSubst)
	if !ok {
		return ""
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, cs); err != nil {
		return ""
	}
	return b.String()
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

// psFormats are options of ps that change only how it prints what it
// finds.
var psFormats = setOf(`-f -F -l -j -w -ww -H h --no-headers --no-header`)
