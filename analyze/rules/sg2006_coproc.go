package rules

import "github.com/shguard/shguard/analyze/diag"

// Coproc reports a coprocess that is never waited for.
var Coproc = Rule{
	ID:       "SG2006",
	Name:     "coproc",
	Severity: diag.Warning,
	Summary:  "A coprocess that is never waited for outlives the shell",
	Doc: `A coprocess runs asynchronously with pipes to the shell; its stderr is
still the caller's. When the shell exits without waiting for it, it keeps
running (and, with stderr not redirected, keeps the caller waiting).`,
	Wrong: `coproc bc -l 2>/dev/null; echo '2+2' >&"${COPROC[1]}"; read -r x <&"${COPROC[0]}"`,
	Right: `coproc bc -l 2>/dev/null; echo '2+2' >&"${COPROC[1]}"; read -r x <&"${COPROC[0]}"; kill "$COPROC_PID"`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if j.Coproc && j.Reportable() {
				p.Report(j.Start, j.End,
					p.quoted(j)+" is a coprocess nobody waits for or stops: it outlives the shell; close its input and `wait $COPROC_PID`, or kill it")
			}
		}
	},
}
