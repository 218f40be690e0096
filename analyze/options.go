package analyze

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
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
	lang         dialect.Lang
	caller       dialect.Caller
	scriptFile   bool
	shebangGuess bool  // (see WithShebangShell)
	files        fs.FS // (see WithFiles)
	servers      map[string]bool
	style        Style
	noDirectives bool
	keep         func(diag.Finding) bool
}

// Option configures Analyze.
type Option func(*config)

// WithLang sets the dialect the source is parsed as.
func WithLang(l dialect.Lang) Option { return func(c *config) { c.lang = l } }

// WithStyle sets the style of the fixes attached to findings.
func WithStyle(s Style) Option { return func(c *config) { c.style = s } }

// WithFilter keeps only the findings for which keep returns true: a linter's
// severity, include and exclude choices. Directives see every finding
// first, so a directive is not reported unused because of the filter, and
// rewrite.Fix, given the option, applies only the fixes of kept findings.
func WithFilter(keep func(diag.Finding) bool) Option { return func(c *config) { c.keep = keep } }

// WithServers adds program names (as a command names them: ./run-dev or
// run-dev both match run-dev) that run until stopped, for a project's own
// servers: in the foreground they get the SG3001 advice. .shguardrc's
// `servers=` key sets them.
func WithServers(names ...string) Option {
	return func(c *config) {
		if c.servers == nil {
			c.servers = map[string]bool{}
		}
		for _, n := range names {
			c.servers[path.Base(n)] = true
		}
	}
}

// WithCaller says how the shell is started (default CallerGroupLeader,
// what agent tools do).
func WithCaller(c dialect.Caller) Option { return func(cfg *config) { cfg.caller = c } }

// WithScriptFile says the source is a script file the shell reads (`bash
// deploy.sh`), not a -c string: a shell execs the last command of a -c
// string in place of itself, never that of a script file.
func WithScriptFile() Option { return func(cfg *config) { cfg.scriptFile = true } }
