package lsp

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"mvdan.cc/sh/v3/syntax"
)

// directiveReason is the reason the inserted directive gives. The analyzer
// requires one (a directive without it is ignored), and only the author
// knows it: the text asks for it where they will read it.
const directiveReason = "TODO: say why this is intended"

// disableEdit is the edit that silences finding f with a
// `# shguard disable=IDs -- reason` line above the statement it is in,
// and the rule IDs that line names.
//
// A directive covers the statement after it, so it goes above the
// innermost statement that holds the finding and starts its line (a line
// inside a statement, after a backslash or in a here-document, is no place
// for a comment). The edit is offered only when the analyzer, run on the
// edited text, no longer reports f and reports nothing new in that
// statement: silencing one finding can uncover another that it subsumed
// (`cd app && server &` silenced as SG1002 is still an unwaited job,
// SG2001), and those rules are added to the line, since the user asked for
// the statement to be quiet.
func disableEdit(snap *snapshot, res *analyze.Result, f analyze.Finding) (protocol.TextEdit, []string, bool) {
	if res.File == nil {
		return protocol.TextEdit{}, nil, false
	}
	src := snap.text.src
	var around []*syntax.Stmt // statements holding the finding's start, outermost first
	syntax.Walk(res.File, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok && int(s.Pos().Offset()) <= f.Start.Offset && f.Start.Offset < int(s.End().Offset()) {
			around = append(around, s)
		}
		return true
	})
	slices.Reverse(around)
	had := map[finding]bool{}
	for _, g := range res.Findings {
		had[finding{g.Rule, g.Start.Offset}] = true
	}
	for _, s := range around {
		start, end := int(s.Pos().Offset()), int(s.End().Offset())
		line := start
		for line > 0 && (src[line-1] == ' ' || src[line-1] == '\t') {
			line--
		}
		if line > 0 && src[line-1] != '\n' {
			continue // not first on its line
		}
		rules := []string{f.Rule}
		for range 3 {
			text := string(src[line:start]) + "# shguard disable=" + strings.Join(rules, ",") + " -- " + directiveReason + "\n"
			more, ok := uncovered(src, line, text, f, start, end, had, snap.opts)
			if !ok {
				break
			}
			if len(more) == 0 {
				return protocol.TextEdit{Range: snap.text.rangeOf(line, line), NewText: text}, rules, true
			}
			rules = append(rules, more...)
		}
	}
	return protocol.TextEdit{}, nil, false
}

type finding struct {
	rule string
	at   int
}

// uncovered analyses src with text inserted at offset at. It fails when f
// is still reported there, and returns the rules of findings new in the
// statement [start, end) of src.
func uncovered(src []byte, at int, text string, f analyze.Finding, start, end int, had map[finding]bool, opts []analyze.Option) ([]string, bool) {
	out := make([]byte, 0, len(src)+len(text))
	out = append(append(append(out, src[:at]...), text...), src[at:]...)
	res, err := run(out, opts)
	if err != nil {
		return nil, false
	}
	shift := len(text)
	var more []string
	for _, g := range res.Findings {
		orig := g.Start.Offset - shift
		switch {
		case g.Rule == f.Rule && orig == f.Start.Offset:
			return nil, false
		case orig >= start && orig < end && !had[finding{g.Rule, orig}] && !slices.Contains(more, g.Rule):
			more = append(more, g.Rule)
		}
	}
	return more, true
}
