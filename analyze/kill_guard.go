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
// substitution, `[ -n "$(jobs -p)" ] && kill $(jobs -p)`), whether it
// is a positive number (`(( P > 0 ))`, `[ "$P" -gt 0 ]`), or whether the
// pid file the kill reads exists (`[ -f run.pid ] && kill $(cat
// run.pid)`, `test ! -e F || kill "$(cat F)"`, -s, -r): when the process
// is gone, the operand empty or the file missing, the kill ends nothing
// either (cat prints nothing, and kill without a pid only complains). (A
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
	// positive: `w OP n` holds for every pid and fails for an empty w
	// (an error in [ ] and test, 0 in arithmetic).
	positive := func(w *syntax.Word, op, n string) bool {
		return and && (n == "0" && (op == "-gt" || op == "-ne" || op == ">" || op == "!=") ||
			n == "1" && (op == "-ge" || op == ">=")) && operandKey(w) == p
	}
	switch xc := x.Cmd.(type) {
	case *syntax.ArithmCmd:
		return arithmPositive(xc.X, p, and)
	case *syntax.TestClause:
		switch t := xc.X.(type) {
		case *syntax.BinaryTest:
			n, ok := t.Y.(*syntax.Word)
			w, ok2 := t.X.(*syntax.Word)
			return ok && ok2 && positive(w, t.Op.String(), n.Lit())
		case *syntax.UnaryTest:
			if t.Op == syntax.TsNot {
				in, ok := t.X.(*syntax.UnaryTest)
				if !ok {
					return false // [[ ! $P ]]
				}
				w, isWord := in.X.(*syntax.Word)
				return isWord && !and && fileTests.has(in.Op.String()) && readsSameFile(ops[0], w)
			}
			w, ok := t.X.(*syntax.Word)
			if ok && and && fileTests.has(t.Op.String()) {
				return readsSameFile(ops[0], w)
			}
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
			if !and || len(a) < 2 || a[0].Lit() != "-p" || pidOperand(a[1]) == "" || operandKey(a[1]) != p {
				return false
			}
			for i := 2; i < len(a); i++ {
				switch o := a[i].Lit(); {
				case o == "-o" || o == "--format":
					i++ // the format
				case strings.HasPrefix(o, "-o") || strings.HasPrefix(o, "--format="), psFormats.has(o):
				default:
					return false // -u root, -C name…: more processes to find
				}
			}
			return true
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
				if and && fileTests.has(a[0].Lit()) {
					return readsSameFile(ops[0], a[1])
				}
				return emptyTest(a[0].Lit(), a[1])
			case 3:
				return positive(a[0], a[1].Lit(), a[2].Lit()) ||
					!and && a[0].Lit() == "!" && fileTests.has(a[1].Lit()) && readsSameFile(ops[0], a[2])
			}
		}
	}
	return false
}

// arithmPositive reports whether an arithmetic command `(( x ))` holds
// for every pid in p and fails for an empty p: `(( pid ))`, `(( $pid > 0
// ))`, `(( pid != 0 ))`, `(( pid >= 1 ))`.
func arithmPositive(x syntax.ArithmExpr, p string, and bool) bool {
	if !and {
		return false
	}
	is := func(e syntax.ArithmExpr) bool {
		w, ok := e.(*syntax.Word)
		return ok && (w.Lit() == p || operandKey(w) == p)
	}
	if b, ok := x.(*syntax.BinaryArithm); ok {
		n, ok := b.Y.(*syntax.Word)
		if !ok || !is(b.X) {
			return false
		}
		switch b.Op {
		case syntax.Gtr, syntax.Neq:
			return n.Lit() == "0"
		case syntax.Geq:
			return n.Lit() == "1"
		}
		return false
	}
	return is(x)
}

// guardsKillBlock is guardsKill for `X && { kill P; …; }`: a block whose
// first command is the kill X guards.
func guardsKillBlock(x, y *syntax.Stmt, and bool) bool {
	b, ok := y.Cmd.(*syntax.Block)
	return ok && len(y.Redirs) == 0 && !y.Negated && !y.Background && len(b.Stmts) > 0 && guardsKill(x, b.Stmts[0], and)
}

// fileTests are the test operators that fail for a file that does not
// exist (-s also for an empty one, which holds no pid either).
var fileTests = setOf(`-e -f -s -r -a`)

// readsSameFile reports whether the kill operand op is the contents of the
// file the test word f names: `$(cat F)` or `$(< F)`, quoted or not, with F
// spelt as the test spells it (quotes aside).
func readsSameFile(op, f *syntax.Word) bool {
	cs, ok := solePart(op).(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	read := readFileWord(cs.Stmts[0])
	if read == nil {
		return false
	}
	k := wordSource(f)
	return k != "" && k == wordSource(read)
}

// wordSource is a word as the source spells it, without its double
// quotes: `"$dir/run.pid"` and `$dir/run.pid` name the same file where a
// directory has no blanks.
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return ""
	}
	return strings.ReplaceAll(b.String(), `"`, "")
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
