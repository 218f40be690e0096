package knowledge

import (
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// BriefJob is how long a background job may hold the caller's output and
// still not count as a hang: the corpus counts a pipe that reaches EOF
// within a second of the shell's exit as clean. A job is brief when every
// command of it is bounded by a literal duration (`sleep 0.3`,
// `timeout 0.5 cmd`) or finishes at once (echo, cd…), and the bounds add up
// to less than that.
const BriefJob = time.Second

// Pause is how long a sleep may last and still be a pause between the
// runs of a program rather than a stand-in for one: a restart loop's delay
// (`while :; do server; sleep 1; done`), which a kill does not land in
// while a program of unknown length runs before it (see walker.fgLong).
const Pause = time.Minute

// parseDuration reads a duration as sleep(1) and timeout(1) take it: a
// non-negative decimal number with an optional suffix s, m, h or d.
func parseDuration(s string) (time.Duration, bool) {
	unit := time.Second
	switch {
	case strings.HasSuffix(s, "s"):
		s = s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		s, unit = s[:len(s)-1], time.Minute
	case strings.HasSuffix(s, "h"):
		s, unit = s[:len(s)-1], time.Hour
	case strings.HasSuffix(s, "d"):
		s, unit = s[:len(s)-1], 24*time.Hour
	}
	if s == "" || strings.ContainsAny(s, "eExXpP_+-") {
		return 0, false // no exponents, hex, signs: keep to what both tools read alike
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > float64(1<<62)/float64(unit) {
		return 0, false
	}
	return time.Duration(f * float64(unit)), true
}

// SleepFor is how long `sleep ARGS` lasts when every argument is a
// literal duration (sleep adds them up).
func SleepFor(args []*syntax.Word) (time.Duration, bool) {
	if len(args) == 0 {
		return 0, false
	}
	var total time.Duration
	for _, a := range args {
		d, ok := parseDuration(WordLit(a))
		if !ok {
			return 0, false
		}
		total += d
	}
	return total, true
}

// Bound is how long a resolved command can run, when a literal duration
// says: a sleep, or anything under timeout.
func (r Resolved) Bound() (time.Duration, bool) {
	d, ok := time.Duration(0), false
	if r.Name == "sleep" {
		d, ok = SleepFor(r.Args)
	}
	if r.Timeout && r.Limit > 0 && (!ok || r.Limit < d) {
		d, ok = r.Limit, true
	}
	return d, ok
}
