package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// dash's kill parses its operands one by one as it signals them, and an
// operand it cannot parse ends the whole builtin (src/jobs.c killcmd:
// number() and getjob() raise an error): `kill "$OLD_PID" $PID` with
// OLD_PID unset, `kill abc $PID` or `kill %9 $PID` signal nothing from
// the bad operand on. A pid that names no process only fails its own
// kill(2), and the rest go on. bash, zsh and mksh go on past every bad
// operand (checked under the four shells in both caller modes).

// parsedOperands is the operands of kill the shell gets to: all of them,
// or in dash (dialect.killStopsAtBad) those before the first it cannot
// parse.
func (w *walker) parsedOperands(ops []*syntax.Word) []*syntax.Word {
	if !w.sh.d.KillStopsAtBad {
		return ops
	}
	for i, a := range ops {
		if w.unparsedOperand(a) {
			return ops[:i]
		}
	}
	return ops
}

// unparsedOperand reports whether kill surely cannot parse a as a pid or
// a job spec: text that is no number, an empty quoted word, a job number
// or %%, %+, %- naming no job, or pids joined into one word.
func (w *walker) unparsedOperand(a *syntax.Word) bool {
	if literalWord(a) {
		v := knowledge.Value(a)
		switch {
		case v == "":
			return true
		case v == "%%" || v == "%+" || v == "%-" || strings.HasPrefix(v, "%") && knowledge.IsDigits(v[1:]):
			return len(w.jobSpec(v)) == 0
		case strings.HasPrefix(v, "%"):
			return false // %name, %?text: not followed
		}
		return !knowledge.IsDigits(strings.TrimPrefix(v, "-"))
	}
	if w.joinsPids(a) {
		return true
	}
	if !hasQuotes(a) {
		return false
	}
	_, known, empty := w.argJobs(a)
	return known && empty
}
