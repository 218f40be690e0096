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
			pid := psProbe(a)
			return and && pid != nil && operandKey(pid) == p
		case "[":
			if len(a) == 0 || a[len(a)-1].Lit() != "]" {
				return false
			}
			a = a[:len(a)-1]
			fallthrough
		case "test":
			switch len(a) {
			case 1:
				return emptyTest("", a[0])
			case 2:
				return emptyTest(a[0].Lit(), a[1])
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

// psProbe returns the operand of `ps -p PID` with output options only
// (-o pid=, h…), which fails when no such process exists; nil for any
// other ps.
func psProbe(a []*syntax.Word) *syntax.Word {
	if len(a) < 2 || a[0].Lit() != "-p" || pidOperand(a[1]) == "" {
		return nil
	}
	for i := 2; i < len(a); i++ {
		switch o := a[i].Lit(); {
		case o == "-o" || o == "--format":
			i++ // the format
		case strings.HasPrefix(o, "-o") || strings.HasPrefix(o, "--format="), psFormats.has(o):
		default:
			return nil // -u root, -C name…: more processes to find
		}
	}
	return a[1]
}

// probesAlive reports whether s asks whether jobs are alive (`kill -0
// $P`, `ps -p $P`) that all still run as far as the walk knows (it takes
// a job that may take a while to run on): the probe succeeds. So `if !
// kill -0 $P; then echo died; exit 1; fi; …; kill $P` reaches the kill
// (the exit would run only once the server had died).
func (w *walker) probesAlive(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || s.Background {
		return false
	}
	r := resolve(ce.Args)
	if r.wrapped {
		return false
	}
	var pid *syntax.Word
	switch r.name {
	case "kill":
		sig, ops, list := killArgs(r.args)
		if list || signalName(sig) != "0" || len(ops) != 1 || pidOperand(ops[0]) == "" {
			return false
		}
		pid = ops[0]
	case "ps":
		pid = psProbe(r.args)
	}
	if pid == nil {
		return false
	}
	named, all, _ := w.jobsNamed([]*syntax.Word{pid})
	if all || len(named) == 0 {
		return false
	}
	for _, j := range named {
		if j.quick || j.resolved() {
			return false
		}
	}
	return true
}
