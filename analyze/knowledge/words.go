package knowledge

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// PlainWord reports whether a word is only literal text and quotes, so it
// cannot run anything.
func PlainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// SolePart is the one part of a word, inside double quotes or not
// (`$!`, `"$!"`, `"$(pgrep x)"`), or nil.
func SolePart(word *syntax.Word) syntax.WordPart {
	if parts := UnquotedParts(word); len(parts) == 1 {
		return parts[0]
	}
	return nil
}

// UnquotedParts are the parts of a word, or of the double-quoted string
// that is the whole word (`"/proc/$P"` as /proc/$P).
func UnquotedParts(word *syntax.Word) []syntax.WordPart {
	if len(word.Parts) == 1 {
		if dq, ok := word.Parts[0].(*syntax.DblQuoted); ok {
			return dq.Parts
		}
	}
	return word.Parts
}

// PlainName reports whether a command name is a literal that exec runs as
// the same program: no expansion, quoting or escape, not an option.
func PlainName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_./+-:@,", c) >= 0: // not %: `%1` is `fg %1`
		case c == '~' && i == 0:
		default:
			return false
		}
	}
	return true
}
