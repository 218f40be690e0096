package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// killRefused reports whether the shell's kill builtin refuses the signal
// option of args, and so signals nothing (see dialect.killNoSigPrefix,
// killNoNumOption and killSName). Only the first option names the signal.
func (d *dialect) killRefused(args []*syntax.Word) bool {
	if len(args) == 0 {
		return false
	}
	o := wordLit(args[0])
	sigPrefixed := func(s string) bool { return len(s) > 3 && strings.EqualFold(s[:3], "SIG") }
	switch {
	case o == "-n":
		return d.killNoNumOption
	case o == "-s" && len(args) > 1:
		return d.killNoSigPrefix && sigPrefixed(wordLit(args[1])) || d.killSName && isDigits(wordLit(args[1]))
	case d.killSName && len(o) > 2 && o[1] == 's' && o[0] == '-':
		// -sTERM is SIGSTERM; only -sEGV, -sTOP, -sYS name a signal
		switch strings.ToUpper(o[1:]) {
		case "SEGV", "STOP", "SYS", "STKFLT":
			return false
		}
		return true
	case len(o) > 1 && o[0] == '-':
		return d.killNoSigPrefix && sigPrefixed(o[1:])
	}
	return false
}
