package analyze

import "mvdan.cc/sh/v3/syntax"

// badDupEffect is what a shell does with `>&word` or `<&word` whose word
// names no descriptor: `npm run dev >&/dev/null &`, bash's and zsh's
// short form of `>/dev/null 2>&1`, written for dash or mksh.
type badDupEffect uint8

const (
	// dupOpensFile: `>&file` is `>file 2>&1` (bash, zsh).
	dupOpensFile badDupEffect = iota
	// dupFailsCommand: the redirection fails, the command does not run
	// and its status is 1; with a special builtin (`exec >&log`, `:
	// >&log`) the error ends the shell (mksh: "illegal file descriptor
	// name", then "redirection failure").
	dupFailsCommand
	// dupEndsShell: the redirection raises a syntax error when it is
	// made, which ends the shell it is made in: the shell, a subshell, or
	// the process of a background job (dash: "Syntax error: Bad fd
	// number"; `server >&/dev/null &` starts no server, and `cmd
	// >&/dev/null; kill $!` never reaches the kill).
	dupEndsShell
)

// badDup reports whether a redirection dups from a literal word that names
// no descriptor for dash and mksh: anything but one digit or `-` (`>&10`
// and `>&01` fail there too), and mksh's coprocess `p`.
func badDup(rs []*syntax.Redirect, d *dialect) bool {
	if d.badDup == dupOpensFile {
		return false
	}
	for _, r := range rs {
		if r.Op != syntax.DplOut && r.Op != syntax.DplIn || r.Word == nil {
			continue
		}
		switch v := r.Word.Lit(); {
		case v == "", v == "-", len(v) == 1 && v[0] >= '0' && v[0] <= '9':
		case v == "p" && d.coprocDup:
		default:
			return true // (a word with an expansion is not followed)
		}
	}
	return false
}

// hasBadDupText reports whether text may hold a dup that badDup refuses:
// a `>&` or `<&` not followed by a digit or `-`. It spares the walk of
// every compound for the common `2>&1` (see walker.mayEnd).
func hasBadDupText(text []byte) bool {
	for i := 1; i+1 < len(text); i++ {
		if text[i] != '&' || text[i-1] != '>' && text[i-1] != '<' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j < len(text) && text[j] != '-' && (text[j] < '0' || text[j] > '9') {
			return true
		}
	}
	return false
}

// dupEnds reports whether a foreground statement's own redirections end
// the shell it runs in (see badDupEffect); the statement itself never
// runs (see walker.stmt).
func (w *walker) dupEnds(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || !badDup(s.Redirs, w.sh.d) {
		return false
	}
	if w.sh.d.badDup == dupEndsShell {
		return true
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && specialBuiltins.has(ce.Args[0].Lit())
}
