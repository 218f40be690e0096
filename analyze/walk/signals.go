package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
)

// terminates reports whether a signal ends a process that does not handle
// it. Signal 0 only checks that the process exists; STOP and its kin stop
// it (it still holds what it holds); CONT, CHLD, URG and WINCH are ignored
// by default. A signal that is not a literal is assumed to terminate.
func terminates(sig string) bool {
	switch dialect.SignalName(sig) {
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
	switch dialect.SignalName(sig) {
	case "INT", "2", "QUIT", "3":
		return !w.sh.monitor
	}
	return false
}

// uncatchable reports whether sig is SIGKILL, which no setup of the
// job's own can lose (mksh loses a SIGTERM sent right after the &, never
// a SIGKILL: checked 8 times each under mksh R59).
func uncatchable(sig string) bool {
	s := dialect.SignalName(sig)
	return s == "KILL" || s == "9"
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
	switch dialect.SignalName(sig) {
	case "", "TERM", "15", "INT", "2":
		return true
	}
	return false
}

// ignores reports whether the job ignores sig from its start: one the
// shell ignored then (a trap with an empty action), or SIGHUP under nohup.
func (j *Job) ignores(sig string) bool {
	b := dialect.SigBit(sig)
	return b != 0 && (j.ignored&b != 0 || j.Nohup && b == dialect.SigBit("HUP"))
}
