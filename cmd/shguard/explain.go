package main

import (
	"fmt"
	"io"

	"github.com/shguard/shguard/internal/explain"
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
	r := explain.Rule(args[0])
	if r == nil {
		fmt.Fprintf(stderr, "shguard: no rule %q (shguard --list-rules lists them)\n", args[0])
		return exitUsage
	}
	explain.Write(stdout, r)
	return exitClean
}
