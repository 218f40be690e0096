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
//	// start each plan.Jobs[i].Script() as a managed job, then run
//	// plan.Foreground unless it is ""
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

// editSet is the edits accepted so far in one round, with a quick overlap
// test: fixes are insertions, looked up by offset; the rare replacement is
// checked against each edit.
type editSet struct {
	edits  []analyze.Edit
	points map[int]bool // offsets of insertions
	ranges []analyze.Edit
	// looked counts the accepted edits (and lookups of them) the overlap
	// tests went through: the work that a scan of every accepted edit
	// per fix makes quadratic without allocating anything, which
	// TestFixWorkScalesLinearly counts.
	looked int
}

// add adds the edits of a fix if none overlaps an accepted one.
func (s *editSet) add(fix []analyze.Edit) bool {
	for i, f := range fix {
		s.looked += len(fix[i+1:]) + len(s.ranges) + 1 // the fix's other edits, the replacements, one lookup
		for _, g := range fix[i+1:] {
			if clash(f, g) {
				return false
			}
		}
		if f.Start == f.End && s.points[f.Start] {
			return false
		}
		for _, r := range s.ranges {
			if clash(r, f) {
				return false
			}
		}
		if f.Start != f.End {
			s.looked += len(s.points)
			for p := range s.points {
				if clash(f, analyze.Edit{Start: p, End: p}) {
					return false
				}
			}
		}
	}
	if s.points == nil {
		s.points = map[int]bool{}
	}
	for _, f := range fix {
		if f.Start == f.End {
			s.points[f.Start] = true
		} else {
			s.ranges = append(s.ranges, f)
		}
	}
	s.edits = append(s.edits, fix...)
	return true
}

// clash reports whether two edits overlap, in either order.
func clash(a, b analyze.Edit) bool {
	if b.Start < a.Start || (b.Start == a.Start && b.End < a.End) {
		a, b = b, a
	}
	return overlap(a, b)
}

// offsetMap carries offsets between a source and the result of applying
// sorted, non-overlapping edits to it, in O(log n) each.
type offsetMap struct {
	edits []analyze.Edit
	newAt []int // where each edit's new text starts in the result
}

func newOffsetMap(sorted []analyze.Edit) offsetMap {
	m := offsetMap{edits: sorted, newAt: make([]int, len(sorted))}
	d := 0
	for i, e := range sorted {
		m.newAt[i] = e.Start + d
		d += len(e.New) - (e.End - e.Start)
	}
	return m
}

// forward maps an offset of the source to the result: past an insertion
// made at it, and to the start of a range replaced around it.
func (m offsetMap) forward(off int) int {
	// The edits that start at or before off, except a replacement starting
	// exactly at off (off then stays before its new text).
	i := sort.Search(len(m.edits), func(i int) bool {
		e := m.edits[i]
		return e.Start > off || (e.Start == off && e.End > off)
	})
	if i == 0 {
		return off
	}
	e := m.edits[i-1]
	if off < e.End {
		return m.newAt[i-1]
	}
	return off + m.newAt[i-1] + len(e.New) - e.End
}

// back maps an offset of the result to the source: an offset inside new
// text goes to the start of the edit that inserted it.
func (m offsetMap) back(off int) int {
	i := sort.Search(len(m.newAt), func(i int) bool { return m.newAt[i] > off })
	if i == 0 {
		return off
	}
	e := m.edits[i-1]
	if end := m.newAt[i-1] + len(e.New); off < end {
		return e.Start
	} else {
		return off - end + e.End
	}
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
