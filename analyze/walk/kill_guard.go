package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A guard is the test before the && (or ||) of `X && kill P` that fails
// (succeeds) only when the kill would end nothing: X asks whether the one
// process P is alive (`kill -0 $P`, `kill -0 $(cat F)`, `ps -p $P`) or
// whether P is set at all (`[ -n "$P" ]`, `[ "$P" ]`, `[ ! -z "$P" ]`,
// `test -n`, `[[ $P ]]`, `${P-}` as set -u scripts write it; with || `[
// -z "$P" ]`; P may be a substitution, `[ -n "$(jobs -p)" ] && kill
// $(jobs -p)`), whether it is a positive number (`(( P > 0 ))`, `[ "$P"
// -gt 0 ]`, `[ ${P:-0} -gt 0 ]`), or whether the pid file the kill reads
// exists (`[ -f run.pid ] && kill $(cat run.pid)`, `test ! -e F || kill
// "$(cat F)"`, -s, -r), or several of these in a row (`[ ${P:-0} -gt 0 ]
// && kill -0 $P && kill $P`: see chainGuard): when the process is gone,
// the operand empty or the file missing, the kill ends nothing either
// (cat prints nothing, and kill without a pid only complains). (A
// variable holding several pids, one of them gone, would make `kill -0
// $P` fail with the others alive; a pid variable is taken to hold one.)
// Cleanup code writes the guard so (`kill -0 "$pid" 2>/dev/null && kill
// "$pid"`); the kill runs for sure under bash, zsh, dash and mksh, where a
// guard of another kind (`curl … && kill $!`) leaves it a maybe. The kill
// may be deeper in what the guard runs (`[[ -n "${PID-}" ]] &&
// stop_server`, whose body kills $PID): it is as sure there, and the rest
// a maybe (see walker.guardedKill).
type guard struct {
	key  string       // the operand X asks about (see operandKey)
	file *syntax.Word // or the pid file whose existence it tests
	also *guard       // and a guard chained to it (see chainGuard)
}

// guardOf reads X as a guard of the kills after its && (and) or ||.
func guardOf(x *syntax.Stmt, and bool) (g guard, ok bool) {
	if x.Negated || x.Background {
		return g, false
	}
	// emptyTest: the test op on w (-n, -z, or none for `[ w ]`) fails
	// (&&) or succeeds (||) only when w is empty.
	emptyTest := func(op string, w *syntax.Word) (guard, bool) {
		nonEmpty := op == "-n" || op == ""
		k := operandKey(w)
		return guard{key: k}, (op == "-z" || nonEmpty) && nonEmpty == and && k != ""
	}
	fileTest := func(op string, w *syntax.Word, negated bool) (guard, bool) {
		return guard{file: w}, negated != and && fileTests.Has(op)
	}
	// positive: `w OP n` holds for every pid and fails for an empty w
	// (an error in [ ] and test).
	positive := func(w *syntax.Word, op, n string) (guard, bool) {
		k := operandKey(w)
		if k == "" {
			k = zeroDefaulted(w) // [ ${pid:-0} -gt 0 ]
		}
		return guard{key: k}, and && k != "" && positiveTest(op, n)
	}
	switch xc := x.Cmd.(type) {
	case *syntax.BinaryCmd:
		return chainGuard(xc, and)
	case *syntax.ArithmCmd:
		k := arithmPositive(xc.X)
		return guard{key: k}, and && k != ""
	case *syntax.TestClause:
		switch t := xc.X.(type) {
		case *syntax.BinaryTest:
			w, ok := t.X.(*syntax.Word)
			n, ok2 := t.Y.(*syntax.Word)
			if !ok || !ok2 {
				return g, false
			}
			return positive(w, t.Op.String(), n.Lit())
		case *syntax.UnaryTest:
			if t.Op == syntax.TsNot {
				in, ok := t.X.(*syntax.UnaryTest)
				if !ok {
					return g, false
				}
				w, isWord := in.X.(*syntax.Word)
				if op := notEmptyOp(in.Op.String()); op != "" && isWord {
					return emptyTest(op, w) // [[ ! -z $PID ]]
				}
				return guard{file: w}, isWord && !and && fileTests.Has(in.Op.String())
			}
			w, ok := t.X.(*syntax.Word)
			if !ok {
				return g, false
			}
			if fileTests.Has(t.Op.String()) {
				return fileTest(t.Op.String(), w, false)
			}
			op := map[syntax.UnTestOperator]string{syntax.TsNempStr: "-n", syntax.TsEmpStr: "-z"}[t.Op]
			if op == "" {
				return g, false
			}
			return emptyTest(op, w)
		case *syntax.Word:
			return emptyTest("", t)
		}
	case *syntax.CallExpr:
		if len(xc.Assigns) > 0 {
			return g, false
		}
		rx := knowledge.Resolve(xc.Args)
		if rx.Wrapped {
			return g, false
		}
		a := rx.Args
		switch rx.Name {
		case "kill":
			s, xops, list := dialect.KillArgs(a)
			ok := and && !list && dialect.SignalName(s) == "0" && len(xops) == 1 && operandKey(xops[0]) != ""
			if !ok {
				return g, false
			}
			return guard{key: operandKey(xops[0])}, true
		case "ps":
			pid := psProbe(a)
			if !and || pid == nil {
				return g, false
			}
			return guard{key: operandKey(pid)}, true
		case "[":
			if len(a) == 0 || a[len(a)-1].Lit() != "]" {
				return g, false
			}
			a = a[:len(a)-1]
			fallthrough
		case "test":
			switch len(a) {
			case 1:
				return emptyTest("", a[0])
			case 2:
				if fileTests.Has(a[0].Lit()) {
					return fileTest(a[0].Lit(), a[1], false)
				}
				return emptyTest(a[0].Lit(), a[1])
			case 3:
				if op := notEmptyOp(a[1].Lit()); a[0].Lit() == "!" && op != "" {
					return emptyTest(op, a[2]) // [ ! -z "$PID" ]
				}
				if a[0].Lit() == "!" {
					return fileTest(a[1].Lit(), a[2], true)
				}
				return positive(a[0], a[1].Lit(), a[2].Lit())
			}
		}
	}
	return g, false
}

// covers reports whether the guard is about the kill operand op: the same
// variable or substitution, or `$(cat F)` of the file it tests. An array's
// `"${pids[@]}"` is empty where its first element, which `[ -n "$pids" ]`
// tests, is (mapfile of pgrep's lines, as Kubernetes' local-up-cluster.sh
// kills them).
func (g guard) covers(op *syntax.Word) bool {
	if g.also != nil && !g.also.covers(op) {
		return false
	}
	if g.file != nil {
		return readsSameFile(op, g.file)
	}
	if pe, ok := knowledge.SolePart(op).(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil && pe.Exp == nil && !pe.Length && !pe.Excl && pe.Slice == nil && pe.Repl == nil {
		if ix, isWord := pe.Index.(*syntax.Word); isWord && (ix.Lit() == "@" || ix.Lit() == "*") {
			return pe.Param.Value == g.key
		}
	}
	return g.key != "" && operandKey(op) == g.key
}

// guardedKill is a kill that runs for sure though it sits after a guard:
// its one operand is what the guard asks about.
func guardedKill(g guard, s *syntax.Stmt) bool {
	if s.Negated || s.Background {
		return false
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 {
		return false
	}
	r := knowledge.Resolve(c.Args)
	if r.Name != "kill" || r.Wrapped {
		return false
	}
	sig, ops, list := dialect.KillArgs(r.Args)
	return !list && terminates(sig) && len(ops) == 1 && g.covers(ops[0])
}

// condGuard is a guard with the cond its && or || set (see walker.guards).
type condGuard struct {
	guard
	cond int
}

// guardLifted reports whether the kill with operands ops is one the
// innermost guard the walk is under covers, with no other condition
// between: `[[ -n "${PID-}" ]] && stop`, stop's body killing "$PID".
func (w *walker) guardLifted(ops []*syntax.Word) bool {
	n := len(w.guards)
	return n > 0 && len(ops) == 1 && w.guards[n-1].cond == w.cond && w.guards[n-1].covers(ops[0])
}

// guardsKill reports whether `X && kill P` (and = true) or `X || kill P`
// kills what `kill P` alone would (see guard).
func guardsKill(x, y *syntax.Stmt, and bool) bool {
	g, ok := guardOf(x, and)
	return ok && guardedKill(g, y)
}

// guardsKillBlock is guardsKill for `X && { kill P; …; }`: a block whose
// first command is the kill X guards.
func guardsKillBlock(x, y *syntax.Stmt, and bool) bool {
	b, ok := y.Cmd.(*syntax.Block)
	return ok && len(y.Redirs) == 0 && !y.Negated && !y.Background && len(b.Stmts) > 0 && guardsKill(x, b.Stmts[0], and)
}

// fileTests are the test operators that fail for a file that does not
// exist (-s also for an empty one, which holds no pid either).
var fileTests = knowledge.SetOf(`-e -f -s -r -a`)

// readsSameFile reports whether the kill operand op is the contents of the
// file the test word f names: `$(cat F)` or `$(< F)`, quoted or not, with F
// spelt as the test spells it (quotes aside).
func readsSameFile(op, f *syntax.Word) bool {
	cs, ok := knowledge.SolePart(op).(*syntax.CmdSubst)
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
	src, ok := knowledge.Printed(w)
	if !ok {
		return ""
	}
	return strings.ReplaceAll(src, `"`, "")
}

// operandKey is what a kill operand or test operand expands, for telling
// two of them the same: the variable a word is just the value of
// (`$pid`, `"${pid}"`, `$!`), a job spec, or the source of a lone command
// substitution (`$(jobs -p)`, quoted or not); "" for anything else.
func operandKey(w *syntax.Word) string {
	if p := pidOperand(w); p != "" {
		return p
	}
	cs, ok := knowledge.SolePart(w).(*syntax.CmdSubst)
	if !ok {
		return ""
	}
	src, _ := knowledge.Printed(cs)
	return src
}

// pidOperand is the name of the variable a word is just the value of
// (`$pid`, `"${pid}"`, `$!`, and `${pid-}` or `${pid:-}`, which set -u
// scripts write for one that may be unset), a job spec (`%1`), or "".
func pidOperand(w *syntax.Word) string {
	if t := argText(w); len(t) > 1 && t[0] == '%' {
		return t
	}
	pe, ok := knowledge.SolePart(w).(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Index != nil || pe.Length || pe.Width || pe.Excl || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 {
		return ""
	}
	if pe.Exp != nil && (pe.Exp.Op != syntax.DefaultUnset && pe.Exp.Op != syntax.DefaultUnsetOrNull || pe.Exp.Word != nil && pe.Exp.Word.Lit() != "") {
		return ""
	}
	return pe.Param.Value
}

// psFormats are options of ps that change only how it prints what it
// finds.
var psFormats = knowledge.SetOf(`-f -F -l -j -w -ww -H h --no-headers --no-header`)

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
		case strings.HasPrefix(o, "-o") || strings.HasPrefix(o, "--format="), psFormats.Has(o):
		default:
			return nil // -u root, -C name…: more processes to find
		}
	}
	return a[1]
}

// aliveOperand is the pid that s asks is alive (`kill -0 $P`, `ps -p
// $P`, `[ -d /proc/$P ]`), nil for any other statement.
func aliveOperand(s *syntax.Stmt) *syntax.Word {
	if s.Background {
		return nil
	}
	if tc, ok := s.Cmd.(*syntax.TestClause); ok {
		if u, ok := tc.X.(*syntax.UnaryTest); ok && (u.Op == syntax.TsExists || u.Op == syntax.TsDirect) {
			if x, ok := u.X.(*syntax.Word); ok {
				return procPid(x)
			}
		}
		return nil
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return nil
	}
	r := knowledge.Resolve(ce.Args)
	if r.Wrapped {
		return nil
	}
	switch r.Name {
	case "kill":
		sig, ops, list := dialect.KillArgs(r.Args)
		if list || dialect.SignalName(sig) != "0" || len(ops) != 1 || pidOperand(ops[0]) == "" {
			return nil
		}
		return ops[0]
	case "ps":
		return psProbe(r.Args)
	case "[", "test":
		a := r.Args
		if r.Name == "[" && len(a) > 0 && knowledge.WordLit(a[len(a)-1]) == "]" {
			a = a[:len(a)-1]
		}
		if len(a) == 2 && (knowledge.WordLit(a[0]) == "-e" || knowledge.WordLit(a[0]) == "-d") {
			return procPid(a[1])
		}
	}
	return nil
}

// procPid is the pid of a word `/proc/$P` (quoted or not), which exists
// while the process does; nil for any other word.
func procPid(w *syntax.Word) *syntax.Word {
	parts := knowledge.UnquotedParts(w)
	if len(parts) != 2 {
		return nil
	}
	if l, ok := parts[0].(*syntax.Lit); !ok || l.Value != "/proc/" {
		return nil
	}
	pid := &syntax.Word{Parts: parts[1:]}
	if pidOperand(pid) == "" {
		return nil
	}
	return pid
}

// probesAlive reports whether s asks whether jobs are alive (`kill -0
// $P`, `ps -p $P`) that all still run as far as the walk knows (it takes
// a job that may take a while to run on): the probe succeeds. So `if !
// kill -0 $P; then echo died; exit 1; fi; …; kill $P` reaches the kill
// (the exit would run only once the server had died).
func (w *walker) probesAlive(s *syntax.Stmt) bool {
	pid := aliveOperand(s)
	if pid == nil {
		return false
	}
	named, all, _ := w.jobsNamed([]*syntax.Word{pid})
	if all || len(named) == 0 {
		return false
	}
	for _, j := range named {
		if j.Quick || j.Resolved() {
			return false
		}
	}
	return true
}
