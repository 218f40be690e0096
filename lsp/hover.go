package lsp

import (
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/explain"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// hover is the finding under the cursor with its rule's `shguard explain`
// text, or nil off any finding (so that another server's hover, bash-
// language-server's say, has the popup to itself).
func hover(snap *snapshot, pos protocol.Position) *protocol.Hover {
	res, err := snap.analysis()
	if err != nil {
		return nil
	}
	t := snap.text
	off := t.offset(pos)
	var b strings.Builder
	var rng *protocol.Range
	for _, f := range res.Findings {
		if off < f.Start.Offset || off > f.End.Offset {
			continue
		}
		if rng == nil {
			r := t.rangeOf(f.Start.Offset, f.End.Offset)
			rng = &r
		} else {
			b.WriteString("\n---\n\n")
		}
		b.WriteString("**" + f.Rule + "** (" + f.Severity.String() + "): " + f.Message + "\n\n")
		if f.Suggestion != "" {
			b.WriteString("Suggestion: " + f.Suggestion + "\n\n")
		}
		for _, fix := range f.Fixes {
			b.WriteString("Fix (code action): " + fix.Message + "\n\n")
		}
		if r := analyze.Lookup(f.Rule); r != nil {
			b.WriteString("```text\n" + explainText(r) + "```\n")
		}
	}
	if rng == nil {
		return nil
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()},
		Range:    rng,
	}
}

// explained caches explain.Text, which runs the analyzer on the rule's
// examples.
var explained sync.Map

func explainText(r *analyze.Rule) string {
	if s, ok := explained.Load(r.ID); ok {
		return s.(string)
	}
	s := explain.Text(r)
	explained.Store(r.ID, s)
	return s
}
