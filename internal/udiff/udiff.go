// Package udiff writes unified diffs of line changes, as `diff -u` does:
// `shguard -f diff` prints the fixes with it, and the playground shows the
// same diff the CLI would print.
package udiff

import (
	"bytes"
	"fmt"
	"io"
)

// A change replaces the lines a[A0:A1] of the old text with b[B0:B1].
type change struct{ A0, A1, B0, B1 int }

// splitLines cuts text after each newline; the last line may lack one.
func splitLines(s []byte) [][]byte {
	var ls [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		ls = append(ls, s[:i])
		s = s[i:]
	}
	return ls
}

// maxEdits bounds the Myers search; past it the differing middle becomes
// one change (still a correct patch, only coarser).
const maxEdits = 2000

// lineChanges returns the changes from a to b, in order.
func lineChanges(a, b [][]byte) []change {
	// Common prefix and suffix first: fixes touch few lines.
	p := 0
	for p < len(a) && p < len(b) && bytes.Equal(a[p], b[p]) {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && bytes.Equal(a[len(a)-1-s], b[len(b)-1-s]) {
		s++
	}
	am, bm := a[p:len(a)-s], b[p:len(b)-s]
	if len(am) == 0 && len(bm) == 0 {
		return nil
	}
	var cs []change
	switch {
	case len(am) == len(bm):
		// Fixes rarely add or remove a line: compare line by line (linear).
		for i := 0; i < len(am); i++ {
			if bytes.Equal(am[i], bm[i]) {
				continue
			}
			j := i
			for j < len(am) && !bytes.Equal(am[j], bm[j]) {
				j++
			}
			cs = append(cs, change{i, j, i, j})
			i = j
		}
	default:
		cs = myers(am, bm)
	}
	for i := range cs {
		cs[i].A0 += p
		cs[i].A1 += p
		cs[i].B0 += p
		cs[i].B1 += p
	}
	return cs
}

// myers is the O(ND) diff of Myers (1986), keeping the frontier of each
// step to walk back; past maxEdits steps it gives up on precision.
func myers(a, b [][]byte) []change {
	n, m := len(a), len(b)
	whole := []change{{0, n, 0, m}}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && bytes.Equal(a[x], b[y]) {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, d, k, n, m)
			}
		}
	}
	return whole
}

// backtrack turns the saved frontiers into changes.
func backtrack(trace [][]int, d, k, x, y int) []change {
	var rev []change // single-line steps, last first
	for ; d > 0; d-- {
		prev := trace[d] // frontier before step d, indexed from -d-1
		at := func(k int) int { return prev[k+d+1] }
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1 // came down: an insertion
		} else {
			pk = k - 1 // came right: a deletion
		}
		px := at(pk)
		py := px - pk
		// Walk back the diagonal, then the single step.
		if pk == k+1 {
			rev = append(rev, change{px, px, py, py + 1})
		} else {
			rev = append(rev, change{px, px + 1, py, py})
		}
		k, x, y = pk, px, py
	}
	// Merge adjacent steps into blocks.
	var cs []change
	for i := len(rev) - 1; i >= 0; i-- {
		c := rev[i]
		if l := len(cs) - 1; l >= 0 && cs[l].A1 == c.A0 && cs[l].B1 == c.B0 {
			cs[l].A1, cs[l].B1 = c.A1, c.B1
			continue
		}
		cs = append(cs, c)
	}
	return cs
}

const context = 3

// Write writes the diff from old to new as `diff -u` does, with
// `a/name` and `b/name` headers, for patch -p1 and git apply.
func Write(w io.Writer, name string, old, new []byte) {
	a, b := splitLines(old), splitLines(new)
	cs := lineChanges(a, b)
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "--- a/%s\n+++ b/%s\n", name, name)
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1].A0-cs[j].A1 <= 2*context {
			j++
		}
		a0, b0 := max(cs[i].A0-context, 0), max(cs[i].B0-context, 0)
		a1 := min(cs[j].A1+context, len(a))
		b1 := min(cs[j].B1+context, len(b))
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(a0, a1), hunkRange(b0, b1))
		ai := a0
		for _, c := range cs[i : j+1] {
			for ; ai < c.A0; ai++ {
				diffLine(w, ' ', a[ai])
			}
			for _, l := range a[c.A0:c.A1] {
				diffLine(w, '-', l)
			}
			for _, l := range b[c.B0:c.B1] {
				diffLine(w, '+', l)
			}
			ai = c.A1
		}
		for ; ai < a1; ai++ {
			diffLine(w, ' ', a[ai])
		}
		i = j + 1
	}
}

func hunkRange(start, end int) string {
	n := end - start
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func diffLine(w io.Writer, op byte, l []byte) {
	fmt.Fprintf(w, "%c%s", op, l)
	if !bytes.HasSuffix(l, []byte("\n")) {
		io.WriteString(w, "\n\\ No newline at end of file\n")
	}
}
