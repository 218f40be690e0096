package analyze

import (
	"sort"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/fix"
	"github.com/shguard/shguard/analyze/walk"
)

// checker is one analysis above the walk: the walk's pass (embedded: the
// rules read its jobs, marks and calls), and what the floors above the
// walk write or read alone: the options the walk never reads, the
// findings, the rule being checked and the fix's scopes. It is pooled
// with the pass inside it (one object, as the pass alone was before).
type checker struct {
	walk.Pass
	opts     options
	findings []diag.Finding
	lines    []int
	rule     *Rule     // the rule being checked
	fixes    fix.Fixer // the fixes' maker (SG1002's)
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

// reset clears what the previous analysis left: the pass (see
// pass.reset) and the checker's own fields, each only when set (a write
// barrier per pointer word otherwise). TestPassResetFields makes a new
// field fail until it is cleared here.
func (c *checker) reset(src []byte) {
	c.Pass.Reset(src)
	if c.opts.cfg != &c.Cfg {
		c.opts.cfg = &c.Cfg
	}
	if c.opts.fixes != &c.fixes {
		c.opts.fixes = &c.fixes
	}
	c.fixes.Reset(&c.Pass)
	c.opts.noDirectives = false
	if c.opts.keep != nil {
		c.opts.keep = nil
	}
	if len(c.findings) > 0 {
		clear(c.findings)
		c.findings = c.findings[:0]
	}
	c.lines = c.lines[:0]
	if c.rule != nil {
		c.rule = nil
	}
}

// release hands the checker back, with its scratch slices (the Result
// has copies); what the next reset would clear is cleared now, so that
// the pool does not keep this command's tree alive.
func (c *checker) release() {
	c.reset(nil)
	checkers.Put(c)
}

// report adds a finding; positions are outer byte offsets, turned into
// lines and columns once all rules ran.
func (p *checker) report(start, end int, msg string) *diag.Finding {
	p.findings = append(p.findings, diag.Finding{
		Rule:     p.rule.ID,
		Severity: p.rule.Severity,
		Start:    diag.Position{Offset: start},
		End:      diag.Position{Offset: end},
		Message:  msg,
		URL:      p.rule.url,
	})
	return &p.findings[len(p.findings)-1]
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
