package analyze

import (
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// source maps offsets in the text being walked to offsets in the text the
// user gave us. The outer source maps to itself.
type source struct {
	offs []int // nil: identity
	// quote is the quoting the text sits in, in the outer source: 0 for none
	// (the outer source itself), '\'' or '"'. Fixes inside a quoted string
	// must not insert characters that would end or change it.
	quote byte
	// text is the walked text itself.
	text []byte
	// file is text as the walk parsed it (nil for the outer source), kept
	// for the fixes that look at the whole nested script (see scopes).
	file *syntax.File
	// exits: 1 the text has an exit or exec in it, -1 it has none, 0 not
	// looked yet (see mentionsExit).
	exits int8
	// bad are the offsets of the parameter expansions the shell refuses
	// where it expands them (dash's ${pids[@]}: see badSubstsRead), sorted.
	bad []int
	// script: file is the whole script of a shell of its own (a -c
	// string, a script file or stdin), not an eval'd string: its top level
	// is that shell's (see nestedErrexitEnds).
	script bool
}

// mentionsExit reports whether the source has an exit or an exec anywhere
// in it, looked up once: most have none, and then no statement of theirs
// needs a look (see walker.afterExit).
func (s *source) mentionsExit(d *dialect.Dialect) bool {
	if s.exits == 0 {
		s.exits = -1
		if hasExitWord(s.text, d) {
			s.exits = 1
		}
	}
	return s.exits > 0
}

func (s *source) outer(off int) int {
	if s.offs == nil {
		return off
	}
	if off < 0 {
		return s.offs[0]
	}
	if off >= len(s.offs) {
		return s.offs[len(s.offs)-1]
	}
	return s.offs[off]
}

// edit maps an edit in the walked text to the outer source, when the range
// maps to a contiguous range and the new text survives the quoting.
func (s *source) edit(start, end int, text string) (diag.Edit, bool) {
	if s.offs == nil {
		return diag.Edit{Start: start, End: end, New: text}, true
	}
	for i := start; i < end; i++ {
		if s.outer(i+1) != s.outer(i)+1 {
			return diag.Edit{}, false
		}
	}
	switch s.quote {
	case '\'':
		if strings.ContainsRune(text, '\'') {
			return diag.Edit{}, false
		}
	case '"':
		if strings.ContainsAny(text, "\"\\$`") {
			return diag.Edit{}, false
		}
	default:
		return diag.Edit{}, false
	}
	return diag.Edit{Start: s.outer(start), End: s.outer(start) + (end - start), New: text}, true
}
