package rules

import (
	"github.com/shguard/shguard/analyze/diag"
)

// UnusedDirective reports a directive that silences nothing.
var UnusedDirective = Rule{
	ID:       "SG3102",
	Name:     "unused-directive",
	Severity: diag.Info,
	Summary:  "A shguard directive suppresses nothing: remove it, or move it above the statement it is meant for",
	Doc: `A '# shguard disable=SGxxxx -- reason' comment covers the statement right
after it. When that statement has no finding of the named rule, the directive
does nothing: the command was fixed, or the directive sits in the wrong place
(a comment trailing a command covers nothing; put it on the line above).
Stale directives would silence a real problem added later, so they are
reported.`,
	Wrong: "# shguard disable=SG2001 -- the server must keep running\nmake build",
	Right: "make build",
	// Reported by the façade (analyze.applyDirectives) once every other
	// rule has run.
}
