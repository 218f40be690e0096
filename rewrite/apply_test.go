package rewrite

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
)

func TestApply(t *testing.T) {
	src := []byte("A && B &\n# comment\n\tC\\\n  D &\n")
	cases := []struct {
		edits []analyze.Edit
		want  string
		err   string
	}{
		{nil, string(src), ""},
		{[]analyze.Edit{{Start: 5, End: 5, New: "exec "}}, "A && exec B &\n# comment\n\tC\\\n  D &\n", ""},
		// Any order in, sorted out.
		{[]analyze.Edit{{Start: 8, End: 8, New: " }"}, {Start: 5, End: 5, New: "{ "}}, "A && { B & }\n# comment\n\tC\\\n  D &\n", ""},
		{[]analyze.Edit{{Start: 0, End: 1, New: "cd x"}, {Start: 1, End: 1, New: "!"}}, "cd x! && B &\n# comment\n\tC\\\n  D &\n", ""},
		{[]analyze.Edit{{Start: 0, End: len(src), New: ""}}, "", ""},
		{[]analyze.Edit{{Start: 0, End: 3, New: "x"}, {Start: 2, End: 4, New: "y"}}, "", "overlap"},
		{[]analyze.Edit{{Start: 5, End: 5, New: "a"}, {Start: 5, End: 5, New: "b"}}, "", "overlap"},
		{[]analyze.Edit{{Start: 5, End: 5, New: "a"}, {Start: 5, End: 6, New: "b"}}, "", "overlap"},
		{[]analyze.Edit{{Start: 3, End: 2, New: "a"}}, "", "outside"},
		{[]analyze.Edit{{Start: 0, End: len(src) + 1, New: "a"}}, "", "outside"},
		{[]analyze.Edit{{Start: -1, End: 0, New: "a"}}, "", "outside"},
	}
	for _, c := range cases {
		before := string(src)
		got, err := Apply(src, c.edits)
		if string(src) != before {
			t.Fatalf("Apply modified its input")
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Apply(%v): %q, %v; want an error about %q", c.edits, got, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("Apply(%v) = %q, %v; want %q", c.edits, got, err, c.want)
		}
	}
}

// offsetMap agrees with a plain walk over the edits, for random edits.
func TestOffsetMap(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 2000; iter++ {
		n := 1 + r.Intn(40)
		var edits []analyze.Edit
		var set editSet
		for k := r.Intn(6); k > 0; k-- {
			s := r.Intn(n + 1)
			e := s
			if r.Intn(3) == 0 {
				e = s + r.Intn(n-s+1)
			}
			ed := analyze.Edit{Start: s, End: e, New: strings.Repeat("x", r.Intn(4))}
			if set.add([]analyze.Edit{ed}) {
				edits = append(edits, ed)
			}
		}
		sortEdits(edits)
		src := []byte(strings.Repeat("s", n))
		out, err := Apply(src, edits)
		if err != nil {
			t.Fatalf("editSet accepted overlapping edits %v: %v", edits, err)
		}
		m := newOffsetMap(edits)
		for off := 0; off <= n; off++ {
			if got, want := m.forward(off), slowForward(off, edits); got != want {
				t.Fatalf("forward(%d) over %v = %d, want %d", off, edits, got, want)
			}
		}
		for off := 0; off <= len(out); off++ {
			if got, want := m.back(off), slowBack(off, edits); got != want {
				t.Fatalf("back(%d) over %v = %d, want %d", off, edits, got, want)
			}
		}
	}
}

func slowForward(off int, sorted []analyze.Edit) int {
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

func slowBack(off int, sorted []analyze.Edit) int {
	d := 0
	for _, e := range sorted {
		ns := e.Start + d
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
