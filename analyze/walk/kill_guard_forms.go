package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Test harnesses stack their guards before the kill and give the pid a
// default for the test: `[ ${serverpid:-0} -gt 0 ] && kill -0 $serverpid
// && kill $serverpid`, as a client test script stops the server it
// started. Each part fails only where the kill would end nothing, so the
// kill runs for sure (see guard).

// chainGuard reads `A && B` before an && (or `A || B` before an ||) as
// one guard when A and B are guards: the list fails (succeeds) exactly
// when one of them does, so it guards a kill that each is about (`[ -f
// F ] && kill -0 $(cat F) && kill $(cat F)`). Scripts stack a few; a
// longer list is taken for no guard, which bounds the work a list of
// thousands of tests would make.
func chainGuard(b *syntax.BinaryCmd, and bool) (guard, bool) {
	op := syntax.OrStmt
	if and {
		op = syntax.AndStmt
	}
	var parts []guard
	for x := b; len(parts) < maxChainGuards; {
		if x.Op != op {
			return guard{}, false
		}
		g, ok := guardOf(x.Y, and)
		if !ok {
			return guard{}, false
		}
		parts = append(parts, g)
		if xb, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && !x.X.Negated && !x.X.Background {
			x = xb
			continue
		}
		g, ok = guardOf(x.X, and)
		if !ok {
			return guard{}, false
		}
		tail := &g
		for i := range parts {
			for tail.also != nil {
				tail = tail.also
			}
			tail.also = &parts[i]
		}
		return g, true
	}
	return guard{}, false
}

// maxChainGuards is the longest list of guards chainGuard reads.
const maxChainGuards = 8

// zeroDefaulted is the variable of `${P:-0}` or `${P-0}`, a pid operand
// that reads 0 where P is unset or empty, which `-gt 0` and the other
// positive tests then refuse (see positiveTest); "" for any other word.
func zeroDefaulted(w *syntax.Word) string {
	pe, ok := knowledge.SolePart(w).(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp == nil || pe.Exp.Word == nil || pe.Exp.Word.Lit() != "0" {
		return ""
	}
	if pe.Exp.Op != syntax.DefaultUnset && pe.Exp.Op != syntax.DefaultUnsetOrNull {
		return ""
	}
	if pe.Index != nil || pe.Length || pe.Width || pe.Excl || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 {
		return ""
	}
	return pe.Param.Value
}

// notEmptyOp is the test a negated -z or -n is: `! -z P` asks what -n
// does, as scripts write it (`[[ ! -z $PID ]] && kill -0 $PID`); "" for
// any other operator.
func notEmptyOp(op string) string {
	switch op {
	case "-z":
		return "-n"
	case "-n":
		return "-z"
	}
	return ""
}

// positiveTest reports whether `P op n` holds for every pid: > 0, != 0,
// >= 1, in test's words or arithmetic's.
func positiveTest(op, n string) bool {
	switch op {
	case "-gt", "-ne", ">", "!=":
		return n == "0"
	case "-ge", ">=":
		return n == "1"
	}
	return false
}

// arithmPositive is the variable an arithmetic command `(( x ))` asks to
// be a positive number, holding for every pid and failing for an empty
// one (`(( pid ))`, `(( $pid > 0 ))`, `(( pid != 0 ))`), or "".
func arithmPositive(x syntax.ArithmExpr) string {
	name := func(e syntax.ArithmExpr) string {
		w, ok := e.(*syntax.Word)
		if !ok {
			return ""
		}
		if l := w.Lit(); isVarName(l) {
			return l
		}
		return operandKey(w)
	}
	b, ok := x.(*syntax.BinaryArithm)
	if !ok {
		return name(x)
	}
	n, ok := b.Y.(*syntax.Word)
	if !ok || !positiveTest(b.Op.String(), n.Lit()) {
		return ""
	}
	return name(b.X)
}
