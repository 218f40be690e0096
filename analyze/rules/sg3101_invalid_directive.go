package rules

import (
	"github.com/shguard/shguard/analyze/diag"
)

// InvalidDirective reports a directive that cannot be applied.
var InvalidDirective = Rule{
	ID:       "SG3101",
	Name:     "invalid-directive",
	Severity: diag.Info,
	Summary:  "A shguard directive without a reason, or malformed, is ignored: write `# shguard disable=SGxxxx -- why`",
	Doc: `A '# shguard disable=...' comment silences findings for the statement after
it (or for the whole file when it comes before the first statement). It must
name known rule IDs and give the reason after ' -- ', so that whoever reads
the script later knows why the hang or leak is intended. A directive without
a reason, with an unknown rule or a misspelt keyword is ignored (the findings
it meant to silence stay) and reported by this rule.`,
	Wrong: "# shguard disable=SG2004\n./watcher >/tmp/watch.log 2>&1 & disown",
	Right: "# shguard disable=SG2004 -- the watcher must outlive this script\n./watcher >/tmp/watch.log 2>&1 & disown",
	// Reported by the façade (analyze.applyDirectives) once every other
	// rule has run.
}
