package analyze

import (
	"sort"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/rules"
)

// checker is one analysis in the façade: the rules' pass (embedded: the
// walk's facts, the fixer and the findings the rules report) and what
// only the façade reads: the options the floors below never read and the
// line starts of the positions. It is pooled with the passes inside it
// (one object, as the walk's pass alone was before).
type checker struct {
	rules.Pass
	opts  options
	lines []int
}

var checkers = sync.Pool{New: func() any { return new(checker) }}

// newChecker returns a cleared checker from the pool. It keeps the
// buffers that never leave Run (ended subshells, the jobs, marks and
// findings slices).
func newChecker(src []byte) *checker {
	c := checkers.Get().(*checker)
	c.reset(src)
	return c
}

// reset clears what the previous analysis left: the walk's pass (see
// walk.Pass.Reset), the fixer's, the rules' findings and the checker's
// own fields, each only when set (a write barrier per pointer word
// otherwise). TestPassResetFields makes a new field fail until it is
// cleared here.
func (c *checker) reset(src []byte) {
	c.Pass.Pass.Reset(src)
	c.Pass.Fixes.Reset(&c.Pass.Pass)
	if len(c.Pass.Findings) > 0 {
		clear(c.Pass.Findings)
		c.Pass.Findings = c.Pass.Findings[:0]
	}
	if c.Pass.Rule != nil {
		c.Pass.Rule = nil
	}
	if c.opts.cfg != &c.Pass.Cfg {
		c.opts.cfg = &c.Pass.Cfg
	}
	if c.opts.fixes != &c.Pass.Fixes {
		c.opts.fixes = &c.Pass.Fixes
	}
	c.opts.noDirectives = false
	if c.opts.keep != nil {
		c.opts.keep = nil
	}
	c.lines = c.lines[:0]
}

// release hands the checker back, with its scratch slices (the Result
// has copies); what the next reset would clear is cleared now, so that
// the pool does not keep this command's tree alive.
func (c *checker) release() {
	c.reset(nil)
	checkers.Put(c)
}

// text returns the outer source between two offsets.
func (p *checker) text(start, end int) string {
	if start < 0 || end > len(p.Src) || start > end {
		return ""
	}
	return string(p.Src[start:end])
}

// short is text cut to a readable length for messages.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// lineStarts appends to ls the offset of every line of src.
func lineStarts(ls []int, src []byte) []int {
	ls = append(ls, 0)
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

func (p *checker) position(off int) diag.Position {
	i := sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return diag.Position{Offset: off, Line: i + 1, Col: off - p.lines[i] + 1}
}
