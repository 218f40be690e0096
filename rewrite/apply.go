// Package rewrite applies the fixes the analyzer attaches to its findings
// and splits commands into promotion plans.
//
// A fix is a list of byte-offset edits against the original source (see
// analyze.Edit). Applying them never reprints the syntax tree: every byte
// outside an edit (comments, spacing, tabs, here-doc bodies, line
// continuations, quoting) stays exactly as it was. That is the lesson of
// the seed platform whose token-walking rewriter had to be removed: a fix
// that breaks a valid command is worse than none.
//
// An agent tool layer calls it before running a command:
//
//	res, err := rewrite.Fix([]byte(cmd))
//	if err != nil { /* not valid shell: run it as is and let bash report */ }
//	cmd = string(res.Out) // remaining problems are in res.Remaining
//
//	plan, err := rewrite.Plan([]byte(cmd))
//	// start plan.Jobs as managed jobs, then run plan.Foreground
package rewrite

import (
	"fmt"
	"sort"

	"github.com/shguard/shguard/analyze"
)

// Apply returns src with the edits applied. Edits are against src (not
// against each other's results); they may come in any order but must not
// overlap. Two insertions at the same offset overlap too, since their
// order would be ambiguous. Apply copies src; it never modifies it.
func Apply(src []byte, edits []analyze.Edit) ([]byte, error) {
	if len(edits) == 0 {
		return append([]byte(nil), src...), nil
	}
	es := append([]analyze.Edit(nil), edits...)
	sortEdits(es)
	grow := 0
	for i, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit %d:%d %q is outside the source (%d bytes)", e.Start, e.End, e.New, len(src))
		}
		if i > 0 && overlap(es[i-1], e) {
			return nil, fmt.Errorf("edits %d:%d %q and %d:%d %q overlap", es[i-1].Start, es[i-1].End, es[i-1].New, e.Start, e.End, e.New)
		}
		grow += len(e.New) - (e.End - e.Start)
	}
	out := make([]byte, 0, len(src)+grow)
	last := 0
	for _, e := range es {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.New...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// sortEdits orders edits by position; at one offset, an insertion comes
// before a replacement starting there.
func sortEdits(es []analyze.Edit) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End < es[j].End
	})
}

// overlap reports whether b (sorted after a) touches bytes a touches, or
// inserts at the same point as a.
func overlap(a, b analyze.Edit) bool {
	if b.Start < a.End {
		return true
	}
	return b.Start == a.Start // two insertions, or an insertion at a replacement's start
}

// compatible reports whether the edits of a fix can join the accepted ones.
func compatible(accepted, fix []analyze.Edit) bool {
	for _, f := range fix {
		for _, a := range accepted {
			x, y := a, f
			if y.Start < x.Start || (y.Start == x.Start && y.End < x.End) {
				x, y = y, x
			}
			if overlap(x, y) {
				return false
			}
		}
	}
	return true
}

// mapOffset carries an offset of the source the edits apply to over to the
// edited text: an offset inside a replaced range goes to the range's start.
func mapOffset(off int, sorted []analyze.Edit) int {
	d := 0
	for _, e := range sorted {
		if e.Start > off || (e.Start == off && e.End > off) {
			break
		}
		if off < e.End {
			return e.Start + d
		}
		d += len(e.New) - (e.End - e.Start)
	}
	return off + d
}

// unmapOffset is the inverse of mapOffset: an offset of the edited text
// back to the source; an offset inside inserted text goes to the edit's
// start.
func unmapOffset(off int, sorted []analyze.Edit) int {
	d := 0
	for _, e := range sorted {
		ns := e.Start + d // where the edit's new text starts in the output
		if off < ns {
			break
		}
		if off < ns+len(e.New) {
			return e.Start
		}
		d += len(e.New) - (e.End - e.Start)
	}
	return off - d
}

// lineIndex turns offsets into positions the way the analyzer does
// (1-based lines and columns, columns in bytes).
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	ls := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

func (ls lineIndex) position(off int) analyze.Position {
	i := sort.SearchInts(ls, off+1) - 1
	return analyze.Position{Offset: off, Line: i + 1, Col: off - ls[i] + 1}
}
