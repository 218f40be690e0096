package dialect

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// KillArgs splits the arguments of the kill builtin into the signal ("" for
// the default, SIGTERM) and the operands, as bash reads them: options come
// first (-s SIG, -n NUM, -SIG, -NUM, -l/-L), then an optional --.
func KillArgs(args []*syntax.Word) (sig string, ops []*syntax.Word, list bool) {
	i := 0
	for ; i < len(args); i++ {
		o := knowledge.WordLit(args[i])
		switch {
		case o == "--":
			return sig, args[i+1:], false
		case o == "-l" || o == "-L":
			return "", nil, true
		case (o == "-s" || o == "-n") && i+1 < len(args):
			i++
			sig = knowledge.WordLit(args[i])
		case len(o) > 1 && o[0] == '-' && sig == "":
			sig = o[1:]
		default:
			return sig, args[i:], false
		}
	}
	return sig, nil, false
}

// SignalName is a signal as kill's option gives it, in one spelling: upper
// case without SIG (`-sigterm`, `-s TERM`, `-SIGTERM` are all TERM); a
// number stays a number.
func SignalName(sig string) string {
	return strings.TrimPrefix(strings.ToUpper(sig), "SIG")
}

// SigSet is a set of the signals a kill commonly sends, for those the
// shell ignores (see shell.ignored).
type SigSet uint8

// The members of sigSet, as sigBit gives them.
const (
	sigTERM SigSet = 1 << iota
	sigHUP
	sigINT
	sigQUIT
)

// SigBit is sig's member of sigSet ("" is kill's default, TERM), or 0.
func SigBit(sig string) SigSet {
	switch SignalName(sig) {
	case "", "TERM", "15":
		return 1 << 0
	case "HUP", "1":
		return 1 << 1
	case "INT", "2":
		return 1 << 2
	case "QUIT", "3":
		return 1 << 3
	case "USR1", "10":
		return 1 << 4
	case "USR2", "12":
		return 1 << 5
	}
	return 0
}
