package analyze

import (
	"fmt"
	"io/fs"
	"strings"
)

// Style chooses how compound background statements (`A && B &`) are fixed.
type Style int

const (
	// StyleExec turns `A && B &` into `A && exec B &`: the backgrounded
	// subshell becomes B, so nothing waits on B and nothing else changes.
	StyleExec Style = iota
	// StyleBrace turns `A && B &` into `A && { B & }`, the form a seed
	// platform shipped; A then runs in the foreground of the shell.
	StyleBrace
)

// ParseStyle reads "default" (or "exec") and "brace".
func ParseStyle(s string) (Style, error) {
	switch strings.ToLower(s) {
	case "default", "exec", "":
		return StyleExec, nil
	case "brace":
		return StyleBrace, nil
	}
	return 0, fmt.Errorf("unknown fix style %q (want default or brace)", s)
}

func (s Style) String() string {
	if s == StyleBrace {
		return "brace"
	}
	return "default"
}

type config struct {
	lang         Lang
	caller       Caller
	scriptFile   bool
	shebangGuess bool  // (see WithShebangShell)
	files        fs.FS // (see WithFiles)
	servers      map[string]bool
	style        Style
	noDirectives bool
	keep         func(Finding) bool
}

// Option configures Analyze.
type Option func(*config)

// WithLang sets the dialect the source is parsed as.
func WithLang(l Lang) Option { return func(c *config) { c.lang = l } }

// WithStyle sets the style of the fixes attached to findings.
func WithStyle(s Style) Option { return func(c *config) { c.style = s } }

// WithFilter keeps only the findings for which keep returns true: a linter's
// severity, include and exclude choices. Directives see every finding
// first, so a directive is not reported unused because of the filter, and
// rewrite.Fix, given the option, applies only the fixes of kept findings.
func WithFilter(keep func(Finding) bool) Option { return func(c *config) { c.keep = keep } }
