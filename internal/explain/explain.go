// Package explain writes a rule's documentation as `shguard explain`
// prints it: what it catches, why, a WRONG and a RIGHT example, what
// shguard says about the WRONG one and what --fix makes of it, and the
// URL. The CLI, the language server's hover and the playground show the
// same text, so that a reader meets one explanation wherever they look.
package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// Rule finds a rule by ID or name (case-insensitive), or returns nil.
func Rule(idOrName string) *analyze.Rule {
	if r := analyze.Lookup(idOrName); r != nil {
		return r
	}
	for _, r := range analyze.Rules() {
		if strings.EqualFold(r.Name, idOrName) {
			return r
		}
	}
	return nil
}

// Write writes r's explanation to w. The examples are run through the
// analyzer and the rewriter, so the text shows what this build says.
func Write(w io.Writer, r *analyze.Rule) {
	fmt.Fprintf(w, "%s %s (%s)\n\n%s\n\nWhy:\n%s\n\n", r.ID, r.Name, r.Severity, r.Summary, indent(r.Doc))
	fmt.Fprintf(w, "WRONG:\n%s\n", indent(r.Wrong))
	if fs, err := analyze.Analyze([]byte(r.Wrong)); err == nil {
		for _, f := range fs {
			if f.Rule == r.ID {
				fmt.Fprintf(w, "  shguard: %d:%d: %s\n", f.Start.Line, f.Start.Col, strings.Join(strings.Fields(f.Message), " "))
			}
		}
	}
	if res, err := rewrite.Fix([]byte(r.Wrong)); err == nil && len(res.Applied) > 0 {
		fmt.Fprintf(w, "  shguard --fix makes it:\n%s\n", indent(string(res.Out)))
	}
	fmt.Fprintf(w, "\nRIGHT:\n%s\n\nMore: %s\n", indent(r.Right), r.URL())
}

// Text is Write into a string.
func Text(r *analyze.Rule) string {
	var b strings.Builder
	Write(&b, r)
	return b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
