package dialect

import (
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// KillRefused reports whether the shell's kill builtin refuses the signal
// option of args, and so signals nothing (see dialect.killNoSigPrefix,
// killNoNumOption, killSName, killSAttached and killNameExact). Only the
// first option names the signal. Checked under bash 5.2, zsh 5.9, dash
// 0.5.12 and mksh R59 with every spelling of TERM, HUP and KILL:
//
//	            -term  -sigterm  -SigTerm  -sTERM  -s sigterm  -s SIGterm
//	bash        ok     refused   ok        ok      ok          ok
//	zsh         ok     ok        ok        refused ok          ok
//	dash        ok     refused   refused   ok      refused     refused
//	mksh        refused refused  refused   ok      ok          ok
func (d *Dialect) KillRefused(args []*syntax.Word) bool {
	if len(args) == 0 {
		return false
	}
	o := knowledge.WordLit(args[0])
	switch {
	case o == "-n":
		return d.killNoNumOption
	case o == "-s" && len(args) > 1:
		name := knowledge.WordLit(args[1])
		if knowledge.IsDigits(name) {
			return d.killSName || !signalNumber(name)
		}
		return d.killNoSigPrefix && sigPrefixed(name) || !knownSignal(name)
	case len(o) < 2 || o[0] != '-' || o == "--" || o == "-l" || o == "-L":
		return false
	case o[1] == 's' && len(o) > 2 && isLetter(o[2]) && (d.killSAttached || d.killSName && !sigPrefixed(o[1:])):
		// -sTERM: -s with its name attached (bash, dash, mksh), so that
		// bash reads -sigterm as -s igterm; zsh reads the whole word as
		// a name, and -sTERM is SIGSTERM
		return d.killSName || !knownSignal(o[2:])
	case knowledge.IsDigits(o[1:]):
		return !signalNumber(o[1:])
	case d.killNoSigPrefix && sigPrefixed(o[1:]):
		return true
	case d.killNameExact:
		return !knownSignal(o[1:]) || strings.ToUpper(o[1:]) != o[1:]
	}
	return !knownSignal(o[1:])
}

// signalNumber reports whether a number names a signal (0, which tests
// for the process, up to the last real-time one).
func signalNumber(n string) bool {
	v, err := strconv.Atoi(n)
	return err == nil && v <= 64
}

func sigPrefixed(s string) bool { return len(s) > 3 && strings.EqualFold(s[:3], "SIG") }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// knownSignal reports whether name, in any case and with or without SIG,
// is a Linux signal the shells know.
func knownSignal(name string) bool {
	return signalNames.Has(SignalName(name))
}

var signalNames = knowledge.SetOf(`HUP INT QUIT ILL TRAP ABRT IOT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM
	STKFLT CHLD CLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO POLL PWR SYS`)
