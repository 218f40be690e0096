package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// runExplain prints a rule's documentation: what it catches, why, a WRONG
// and a RIGHT example, what shguard says about the WRONG one and what
// --fix makes of it, and the URL.
func runExplain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, "Usage: shguard explain SGxxxx|NAME\n\nPrints the rule's documentation with a WRONG and a RIGHT example.\nshguard --list-rules lists the rules.\n")
		return exitClean
	}
	if len(args) != 1 {
		fmt.Fprint(stderr, "shguard: explain takes one rule ID or name (shguard --list-rules lists them)\n")
		return exitUsage
	}
	r := analyze.Lookup(args[0])
	if r == nil {
		for _, x := range analyze.Rules() {
			if strings.EqualFold(x.Name, args[0]) {
				r = x
			}
		}
	}
	if r == nil {
		fmt.Fprintf(stderr, "shguard: no rule %q (shguard --list-rules lists them)\n", args[0])
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s %s (%s)\n\n%s\n\nWhy:\n%s\n\n", r.ID, r.Name, r.Severity, r.Summary, indent(r.Doc))
	fmt.Fprintf(stdout, "WRONG:\n%s\n", indent(r.Wrong))
	if fs, err := analyze.Analyze([]byte(r.Wrong)); err == nil {
		for _, f := range fs {
			if f.Rule == r.ID {
				fmt.Fprintf(stdout, "  shguard: %d:%d: %s\n", f.Start.Line, f.Start.Col, oneLine(f.Message))
			}
		}
	}
	if res, err := rewrite.Fix([]byte(r.Wrong)); err == nil && len(res.Applied) > 0 {
		fmt.Fprintf(stdout, "  shguard --fix makes it:\n%s\n", indent(string(res.Out)))
	}
	fmt.Fprintf(stdout, "\nRIGHT:\n%s\n\nMore: %s\n", indent(r.Right), r.URL())
	return exitClean
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
