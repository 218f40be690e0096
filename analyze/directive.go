package analyze

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/analyze/rules"
	"mvdan.cc/sh/v3/syntax"
)

// Inline directives silence a finding where the author knows better:
//
//	# shguard disable=SG2001 -- the watcher must outlive this script
//	./watcher >/tmp/watch.log 2>&1 &
//
// A directive is a comment of its own (not one trailing a command) made of
// `shguard disable=` and a comma-separated list of rule IDs, then ` -- `
// and the reason, which is required. It covers the statement that follows
// it, here-doc bodies and nested statements included, and the rest of the
// line that statement ends on (so `server & disown` is covered as a whole). A directive in the
// comments before the first statement of a file (after the shebang, say)
// covers the whole file.
//
// A directive without a reason, with an unknown rule ID or malformed is
// reported (SG3101) and suppresses nothing; a well-formed directive that
// suppresses nothing is reported too (SG3102), so stale directives do not
// pile up. Analyze applies directives unless WithDirectives(false) is given.

// WithDirectives turns inline `# shguard disable=` directives on (the
// default) or off. Off, every finding is reported and directives are plain
// comments.
func WithDirectives(on bool) Option { return func(o *options) { o.noDirectives = !on } }

// directive is one `# shguard ...` comment.
type directive struct {
	start, end int // the comment, '#' included
	ids        []string
	used       []bool
	from, to   int    // the covered byte range; from > to: covers nothing
	trailing   bool   // the comment trails a command on its line
	invalid    string // why the directive cannot be applied, or ""
}

const directiveWord = "shguard"

// applyDirectives drops the findings that directives cover and reports
// the invalid and unused directives. It runs after every rule.
func (p *checker) applyDirectives() {
	if !p.directivesPossible() {
		return
	}
	ds := collectDirectives(p.File, p.Src)
	if len(ds) == 0 {
		return
	}
	p.Findings = slices.DeleteFunc(p.Findings, func(f diag.Finding) bool { return suppress(ds, f) })
	for _, d := range ds {
		text := p.text(d.start, d.end)
		if d.invalid != "" {
			p.Rule = InvalidDirective
			p.Report(d.start, d.end, "`"+short(text)+"` "+d.invalid+"; it is ignored. Write `# shguard disable=SGxxxx -- reason` (a rule ID or name) on the line above the statement")
			continue
		}
		p.Rule = UnusedDirective
		for i, id := range d.ids {
			if d.used[i] {
				continue
			}
			where := "the statement after it has no " + id + " finding"
			switch {
			case d.trailing:
				where = "a directive trailing a command covers nothing; put it on the line above the statement"
			case d.from > d.to:
				where = "no statement follows it"
			case d.from == 0 && d.to == len(p.Src):
				where = "the file has no " + id + " finding"
			}
			p.Report(d.start, d.end, "`"+short(text)+"` suppresses nothing for "+id+": "+where+"; remove it")
		}
	}
	p.Rule = nil
}

// directivesPossible is false when no directive can apply: none are
// honoured, or the source does not name the tool.
func (p *checker) directivesPossible() bool {
	return !p.opts.noDirectives && bytes.Contains(p.Src, []byte(directiveWord))
}

// span is a finding's place, in outer offsets.
type span struct{ start, end int }

// spans are places of findings, sorted.
type spans []span

// errorSpans are the places of the error findings.
func (p *checker) errorSpans() spans {
	var errs spans
	for _, f := range p.Findings {
		if f.Severity == diag.Error {
			errs = append(errs, span{f.Start.Offset, f.End.Offset})
		}
	}
	slices.SortFunc(errs, compareSpans)
	return errs
}

func (ss spans) has(s span) bool {
	_, ok := slices.BinarySearchFunc(ss, s, compareSpans)
	return ok
}

func compareSpans(a, b span) int {
	if a.start != b.start {
		return a.start - b.start
	}
	return a.end - b.end
}

// dropSubsumed drops the SG2001 finding of a job that also has an error
// finding (it holds the caller's output, which says more), once every
// rule and the directives have run: silencing exactly the error leaves the
// leak reported, as a directive silences exactly the rules it names. It
// is a step of the driver, not of a rule, so that no rule reads another's
// findings and the order the rules run in does not matter.
func (p *checker) dropSubsumed() {
	if !slices.ContainsFunc(p.Findings, func(f diag.Finding) bool { return f.Rule == rules.UnmanagedBackground.ID }) {
		return
	}
	errs := p.errorSpans()
	p.Findings = slices.DeleteFunc(p.Findings, func(f diag.Finding) bool {
		return f.Rule == rules.UnmanagedBackground.ID && errs.has(span{f.Start.Offset, f.End.Offset})
	})
}

// suppress reports whether a valid directive covers the finding, and marks
// every such directive used.
func suppress(ds []*directive, f diag.Finding) bool {
	if f.Rule == InvalidDirective.ID || f.Rule == UnusedDirective.ID {
		return false
	}
	hit := false
	for _, d := range ds {
		if d.invalid != "" || f.Start.Offset < d.from || f.Start.Offset >= d.to {
			continue
		}
		for i, id := range d.ids {
			if id == f.Rule {
				d.used[i] = true
				hit = true
			}
		}
	}
	return hit
}

// collectDirectives finds every directive comment of the file and what it
// covers, in source order.
func collectDirectives(f *syntax.File, src []byte) []*directive {
	var ds []*directive
	seen := map[uint]bool{} // comments attached to statements, by offset
	add := func(c syntax.Comment, from, to int, trailing bool) {
		seen[c.Hash.Offset()] = true
		d := parseDirective(c)
		if d == nil {
			return
		}
		d.from, d.to, d.trailing = from, to, trailing
		ds = append(ds, d)
	}
	var first *syntax.Stmt
	if len(f.Stmts) > 0 {
		first = f.Stmts[0]
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, c := range n.Comments {
				switch {
				case c.Pos().After(n.Pos()):
					add(c, 1, 0, true)
				case n == first:
					add(c, 0, len(src), false)
				default:
					add(c, int(n.Pos().Offset()), lineEnd(src, stmtEnd(n)), false)
				}
			}
		case *syntax.Comment:
			if !seen[n.Hash.Offset()] { // the last comments of a block or file
				add(*n, 1, 0, false)
			}
		}
		return true
	})
	sort.Slice(ds, func(i, j int) bool { return ds[i].start < ds[j].start })
	return ds
}

// stmtEnd is the end offset of a statement including the here-document
// bodies it reads, which lie after Stmt.End.
func stmtEnd(s *syntax.Stmt) int {
	end := int(s.End().Offset())
	knowledge.Inspect(s, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil {
			end = max(end, int(r.Hdoc.End().Offset()))
		}
		return true
	})
	return end
}

// lineEnd is the offset of the newline at or after off, or the end of src.
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

// parseDirective reads `shguard disable=ID[,ID...] -- reason` from a
// comment, or returns nil when the comment is not a directive: a directive
// starts with the word shguard followed by a key=value word.
func parseDirective(c syntax.Comment) *directive {
	text := strings.TrimSpace(c.Text)
	rest, ok := strings.CutPrefix(text, directiveWord)
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return nil
	}
	spec, reason, hasReason := strings.Cut(rest, "--")
	spec = strings.TrimSpace(spec)
	key, list, isKV := strings.Cut(spec, "=")
	if !isKV || strings.ContainsAny(key, " \t") {
		return nil // prose that happens to start with "shguard"
	}
	if key == "shell" {
		return nil // `# shguard shell=zsh` names the shell (DirectiveLang)
	}
	start := int(c.Hash.Offset())
	d := &directive{start: start, end: start + 1 + len(c.Text)}
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id != "" {
			if r := rules.Lookup(id); r != nil {
				id = r.ID // or a name, as -e takes: disable=unmanaged-background
			}
			d.ids = append(d.ids, id)
		}
	}
	d.used = make([]bool, len(d.ids))
	switch {
	case key != "disable":
		d.invalid = "has the unknown key " + key + " (the keys are disable and shell)"
	case len(d.ids) == 0:
		d.invalid = "names no rule"
	case !hasReason || strings.TrimSpace(reason) == "":
		d.invalid = "gives no reason after ` -- `"
	}
	if d.invalid != "" {
		return d
	}
	for _, id := range d.ids {
		if r := rules.Lookup(id); r == nil || r == InvalidDirective || r == UnusedDirective {
			d.invalid = "names " + id + ", which is not a rule it can disable"
			break
		}
	}
	return d
}
