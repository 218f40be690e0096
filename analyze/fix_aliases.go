package analyze

import "github.com/shguard/shguard/analyze/fix"

// The fix lives in package fix (analyze/fix); these names keep the
// clients of package analyze compiling unchanged.

// Style chooses how a compound background job is fixed: exec its last
// command (StyleExec, the default) or give it braces (StyleBrace).
type Style = fix.Style

const (
	StyleExec  = fix.StyleExec
	StyleBrace = fix.StyleBrace
)

// ParseStyle reads "default" (or "exec") and "brace".
func ParseStyle(s string) (Style, error) { return fix.ParseStyle(s) }
