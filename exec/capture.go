//go:build linux || darwin || freebsd

package exec

import (
	"fmt"
	"unicode/utf8"
)

// Capture is an io.Writer that keeps the beginning and the end of what is
// written to it within a fixed budget and counts the rest. The head usually
// says what a command set out to do and the tail how it ended; the middle of
// a long log is what a reader (human or model) can best do without. Memory is
// bounded by the budget whatever the amount written.
type Capture struct {
	headCap, tailCap int
	head             []byte
	tail             []byte // ring buffer once full
	next             int    // write position in tail once full
	total            int64
}

// NewCapture returns a Capture that keeps at most limit bytes: the first
// half and the last half of the stream.
func NewCapture(limit int) *Capture {
	limit = max(limit, 2)
	return &Capture{headCap: limit / 2, tailCap: limit - limit/2}
}

// Write never fails.
func (c *Capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if room := c.headCap - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= c.tailCap {
		// Only the last tailCap bytes of p can survive.
		c.tail = append(c.tail[:0], p[len(p)-c.tailCap:]...)
		c.next = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(c.tail) < c.tailCap {
			k := min(c.tailCap-len(c.tail), len(p))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(c.tail[c.next:], p)
		c.next = (c.next + k) % c.tailCap
		p = p[k:]
	}
	return n, nil
}

// Total is the number of bytes written.
func (c *Capture) Total() int64 { return c.total }

// Truncated reports whether some bytes were dropped.
func (c *Capture) Truncated() bool { return c.total > int64(c.headCap+c.tailCap) }

// String returns the kept bytes; when some were dropped, the head and the
// tail are joined by a marker that says how many. The cut never splits a
// UTF-8 sequence: partial characters at either side are dropped (and
// counted) so that the result stays valid text wherever the input was.
func (c *Capture) String() string {
	tail := make([]byte, 0, len(c.tail))
	tail = append(tail, c.tail[c.next:]...)
	tail = append(tail, c.tail[:c.next]...)
	if !c.Truncated() {
		return string(c.head) + string(tail)
	}
	head := c.head
	if i := lastRuneStart(head); i >= 0 && !utf8.FullRune(head[i:]) {
		head = head[:i]
	}
	for k := 0; k < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); k++ {
		tail = tail[1:]
	}
	dropped := c.total - int64(len(head)) - int64(len(tail))
	return fmt.Sprintf("%s\n[... shexec: %d bytes dropped ...]\n%s", head, dropped, tail)
}

// lastRuneStart returns the index of the byte that starts the last (possibly
// incomplete) UTF-8 sequence of b, or -1.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}
