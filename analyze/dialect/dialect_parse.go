package dialect

import (
	"bytes"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What a shell refuses to run although mvdan.cc/sh's parser for its
// variant accepts it. The analysis must not walk code the shell never
// runs: `zsh -c 'x=$(server &) &'` starts nothing, zsh stops at the parse
// error (checked under zsh 5.9; corpus entries zsh-assign-only-bg-*).

// assignOnlyBackground returns the position of the first `&` (or zsh's
// `&!`, `&|`) that follows a simple command with no command word (only
// assignments and redirections: `x=1 &`, `true && x=$(y) &`,
// `>/dev/null &`), which zsh rejects as "parse error near `&'". What
// stands before the & in a pipeline or and-or list is the last command
// of it: `x=1 | cat &` and `x=1 && true &` are valid, `true | x=1 &` is
// not. A group or subshell around it is valid: `{ x=1; } &`.
func assignOnlyBackground(f *syntax.File) (syntax.Pos, bool) {
	var at syntax.Pos
	knowledge.Inspect(f, func(n syntax.Node) bool {
		if at.IsValid() {
			return false
		}
		if s, ok := n.(*syntax.Stmt); ok && (s.Background || s.Disown) && noCommandWord(s) {
			at = s.Semicolon
		}
		return true
	})
	return at, at.IsValid()
}

// noCommandWord reports whether the last simple command of s has no
// command word.
func noCommandWord(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case nil:
		return true // only redirections
	case *syntax.CallExpr:
		return len(c.Args) == 0
	case *syntax.BinaryCmd:
		return noCommandWord(c.Y)
	case *syntax.TimeClause:
		return c.Stmt == nil || noCommandWord(c.Stmt)
	}
	return false
}

// Refused is the parse error the shell reports for code mvdan.cc/sh
// accepted (see dialect.assignBgRefused), or nil.
func (d *Dialect) Refused(f *syntax.File, src []byte) *diag.ParseError {
	if !d.assignBgRefused || bytes.IndexByte(src, '&') < 0 {
		return nil // no & to refuse: spares a walk of the whole tree
	}
	if at, ok := assignOnlyBackground(f); ok {
		return parseError(src, at, "parse error near `&': a command of only assignments or redirections cannot be put in the background")
	}
	return nil
}
