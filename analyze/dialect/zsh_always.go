package dialect

import (
	"bytes"
	"errors"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"mvdan.cc/sh/v3/syntax"
)

const (
	Present Absence = iota
	// absentFails: "not found" (127), or zsh's `builtin mapfile` ("no
	// such builtin", 1): the command fails and does nothing else.
	AbsentFails
	// absentFatal: mksh's `builtin mapfile`, a special builtin that
	// fails, which ends the shell (in a function, the call).
	AbsentFatal
)

// alwaysWord is the parser's complaint at a word after a `}`.
const alwaysWord = "statements must be separated by &, ; or a newline"

// parseZsh parses src as zsh reads what mvdan.cc/sh refused: an empty `;`
// is a blank (`server &; sleep 1`), `} always {` a try block and its
// always block. It returns the offsets of the `always` words it read.
func parseZsh(src []byte) (*syntax.File, []int, error) {
	text := src
	var always []int
	for range 64 {
		f, err := Parse(text, syntax.LangZsh)
		var pe *diag.ParseError
		if err == nil || !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset >= len(text) {
			return f, always, err
		}
		at := pe.Offset
		switch {
		case strings.Contains(pe.Msg, "`;` can only immediately follow a statement") && text[at] == ';':
			// zsh reads a `;` with no command before it as a blank (zsh
			// 5.9 runs all of them; after `&&` too, where it waits for
			// the command that follows).
		case strings.Contains(pe.Msg, alwaysWord) && alwaysAt(text, at):
		default:
			return nil, nil, err
		}
		if &text[0] == &src[0] {
			text = append([]byte(nil), src...)
		}
		if text[at] == ';' {
			text[at] = ' '
			continue
		}
		copy(text[at:], ";     ")
		always = append(always, at)
	}
	return nil, nil, errors.New("too many `;` and `always` to read")
}

// alwaysAt reports whether text has the word always at off, after a `}`
// on the same line (zshmisc: no newline or `;` may come between them).
func alwaysAt(text []byte, off int) bool {
	rest := text[off:]
	if !bytes.HasPrefix(rest, []byte("always")) || len(rest) > 6 && !strings.ContainsRune(" \t\n;{", rune(rest[6])) {
		return false
	}
	before := bytes.TrimRight(text[:off], " \t")
	return len(before) > 0 && before[len(before)-1] == '}'
}
