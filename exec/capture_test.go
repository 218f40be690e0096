//go:build linux

package exec

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCaptureKeepsAllWithinBudget(t *testing.T) {
	c := NewCapture(10)
	c.Write([]byte("hello"))
	c.Write([]byte("world"))
	if c.String() != "helloworld" || c.Truncated() || c.Total() != 10 {
		t.Errorf("%q truncated=%v total=%d", c.String(), c.Truncated(), c.Total())
	}
}

func TestCaptureHeadAndTail(t *testing.T) {
	// Written in pieces of every size, the result must not depend on how
	// the stream was cut.
	in := strings.Repeat("0123456789", 100)
	for piece := 1; piece <= 37; piece++ {
		c := NewCapture(20)
		for i := 0; i < len(in); i += piece {
			c.Write([]byte(in[i:min(i+piece, len(in))]))
		}
		want := "0123456789\n[... shexec: 980 bytes dropped ...]\n0123456789"
		if c.String() != want || !c.Truncated() || c.Total() != 1000 {
			t.Fatalf("piece %d: %q", piece, c.String())
		}
		if cap(c.head)+cap(c.tail) > 64 {
			t.Fatalf("piece %d: buffers grew to %d+%d bytes", piece, cap(c.head), cap(c.tail))
		}
	}
}

func TestCaptureDoesNotSplitRunes(t *testing.T) {
	c := NewCapture(9) // head 4 bytes, tail 5: both cut a 3-byte rune
	c.Write([]byte(strings.Repeat("€", 10)))
	s := c.String()
	if !utf8.ValidString(s) {
		t.Errorf("invalid UTF-8: %q", s)
	}
	if want := "€\n[... shexec: 24 bytes dropped ...]\n€"; s != want {
		t.Errorf("got %q, want %q", s, want)
	}
}

func TestMergeEnv(t *testing.T) {
	got := mergeEnv([]string{"A=1", "PAGER=less", "B=2", "TERM=xterm"}, []string{"PAGER=cat", "TERM=dumb", "NEW=x"})
	want := "A=1 B=2 PAGER=cat TERM=dumb NEW=x"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v", got)
	}
}
