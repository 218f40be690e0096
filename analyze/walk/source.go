package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// Source maps offsets in the text being walked to offsets in the text the
// user gave us. The outer source maps to itself. The fix reads its Text,
// File, Quote and Offs, and maps offsets with Outer, to edit a job inside
// a nested string.
type Source struct {
	Offs []int // nil: identity
	// Quote is the quoting the text sits in, in the outer source: 0 for none
	// (the outer source itself), '\'' or '"'. Fixes inside a quoted string
	// must not insert characters that would end or change it.
	Quote byte
	// Text is the walked text itself.
	Text []byte
	// File is text as the walk parsed it (nil for the outer source), kept
	// for the fixes that look at the whole nested script (see scopes).
	File *syntax.File
	// exits: 1 the text has an exit or exec in it, -1 it has none, 0 not
	// looked yet (see mentionsExit).
	exits int8
	// Bad are the offsets of the parameter expansions the shell refuses
	// where it expands them (dash's ${pids[@]}: see badSubstsRead), sorted.
	Bad []int
	// script: file is the whole script of a shell of its own (a -c
	// string, a script file or stdin), not an eval'd string: its top level
	// is that shell's (see nestedErrexitEnds).
	script bool
}

// mentionsExit reports whether the source has an exit or an exec anywhere
// in it, looked up once: most have none, and then no statement of theirs
// needs a look (see walker.afterExit).
func (s *Source) mentionsExit(d *dialect.Dialect) bool {
	if s.exits == 0 {
		s.exits = -1
		if hasExitWord(s.Text, d) {
			s.exits = 1
		}
	}
	return s.exits > 0
}

// Outer maps an offset of the walked text to the outer source's.
func (s *Source) Outer(off int) int {
	if s.Offs == nil {
		return off
	}
	if off < 0 {
		return s.Offs[0]
	}
	if off >= len(s.Offs) {
		return s.Offs[len(s.Offs)-1]
	}
	return s.Offs[off]
}

// edit maps an edit in the walked text to the outer source, when the range
// maps to a contiguous range and the new text survives the quoting.
func (s *Source) edit(start, end int, text string) (diag.Edit, bool) {
	if s.Offs == nil {
		return diag.Edit{Start: start, End: end, New: text}, true
	}
	for i := start; i < end; i++ {
		if s.Outer(i+1) != s.Outer(i)+1 {
			return diag.Edit{}, false
		}
	}
	switch s.Quote {
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
	return diag.Edit{Start: s.Outer(start), End: s.Outer(start) + (end - start), New: text}, true
}
