package analyze

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// killArgs splits the arguments of the kill builtin into the signal ("" for
// the default, SIGTERM) and the operands, as bash reads them: options come
// first (-s SIG, -n NUM, -SIG, -NUM, -l/-L), then an optional --.
func killArgs(args []*syntax.Word) (sig string, ops []*syntax.Word, list bool) {
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

// terminates reports whether a signal ends a process that does not handle
// it. Signal 0 only checks that the process exists; STOP and its kin stop
// it (it still holds what it holds); CONT, CHLD, URG and WINCH are ignored
// by default. A signal that is not a literal is assumed to terminate.
func terminates(sig string) bool {
	switch signalName(sig) {
	case "0", "STOP", "TSTP", "TTIN", "TTOU", "CONT", "CHLD", "CLD", "URG", "WINCH",
		"17", "18", "19", "20", "21", "22", "23", "28":
		return false
	}
	return true
}

// jobsIgnore reports whether the shell's background jobs ignore sig: a
// shell without job control starts them with SIGINT and SIGQUIT ignored
// (POSIX; bash, zsh, dash and mksh alike), so `kill -INT $!` leaves a
// program that keeps the default (sleep, a plain script) running. One
// that installs its own handler (many servers do) would stop; the
// analysis goes by the default, as the shells' own behaviour is checked.
func (w *walker) jobsIgnore(sig string) bool {
	switch signalName(sig) {
	case "INT", "2", "QUIT", "3":
		return !w.sh.monitor
	}
	return false
}

// uncatchable reports whether sig is SIGKILL, which no setup of the
// job's own can lose (mksh loses a SIGTERM sent right after the &, never
// a SIGKILL: checked 8 times each under mksh R59).
func uncatchable(sig string) bool {
	s := signalName(sig)
	return s == "KILL" || s == "9"
}

// signalName is a signal as kill's option gives it, in one spelling: upper
// case without SIG (`-sigterm`, `-s TERM`, `-SIGTERM` are all TERM); a
// number stays a number.
func signalName(sig string) string {
	return strings.TrimPrefix(strings.ToUpper(sig), "SIG")
}

// isSignal reports whether s names a signal as a -SIG option does: a number
// or an upper-case name, with or without SIG.
func isSignal(s string) bool {
	if knowledge.IsDigits(s) {
		return true
	}
	s = strings.TrimPrefix(s, "SIG")
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return s != ""
}

// softSignal reports whether sig is SIGTERM (kill's default) or SIGINT,
// which a background subshell of mksh defers.
func softSignal(sig string) bool {
	switch signalName(sig) {
	case "", "TERM", "15", "INT", "2":
		return true
	}
	return false
}

// sigSet is a set of the signals a kill commonly sends, for those the
// shell ignores (see shell.ignored).
type sigSet uint8

// The members of sigSet, as sigBit gives them.
const (
	sigTERM sigSet = 1 << iota
	sigHUP
	sigINT
	sigQUIT
)

// sigBit is sig's member of sigSet ("" is kill's default, TERM), or 0.
func sigBit(sig string) sigSet {
	switch signalName(sig) {
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

// ignores reports whether the job ignores sig from its start: one the
// shell ignored then (a trap with an empty action), or SIGHUP under nohup.
func (j *job) ignores(sig string) bool {
	b := sigBit(sig)
	return b != 0 && (j.ignored&b != 0 || j.nohup && b == sigBit("HUP"))
}
