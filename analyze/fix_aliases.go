package analyze

import "github.com/shguard/shguard/analyze/fix"

// The public names that moved to package fix,
// kept here so that the package's clients compile unchanged.

// ParseStyle reads "default" (or "exec") and "brace".
func ParseStyle(s string) (Style, error) { return fix.ParseStyle(s) }

type Style = fix.Style

const StyleBrace = fix.StyleBrace

const StyleExec = fix.StyleExec
