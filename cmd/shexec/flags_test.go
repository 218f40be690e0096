//go:build linux

package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFlagSet: the parser accepts what pflag accepted for shexec's flags.
func TestFlagSet(t *testing.T) {
	for _, c := range []struct {
		args         []string
		interspersed bool
		want         string // "c=.. t=.. n=.. s=.. args" or "error: ..."
	}{
		{[]string{"-c", "echo", "-x", "--json"}, false, "c=true t=0 n=7 s=bash [echo -x --json]"},
		{[]string{"--timeout=1.5", "--shell", "dash", "-c", "x"}, false, "c=true t=1.5s n=7 s=dash [x]"},
		{[]string{"--timeout", "-1"}, false, `error: invalid argument "-1" for "--timeout" flag: "-1" is negative`},
		{[]string{"-ch", "--", "-c"}, false, "c=true t=0 n=7 s=bash [-c] help"},
		{[]string{"--json=false", "-", "a"}, false, "c=false t=0 n=7 s=bash [- a]"},
		{[]string{"a", "--n", "0x10", "b"}, true, "c=false t=0 n=16 s=bash [a b]"},
		{[]string{"--n"}, true, "error: flag needs an argument: --n"},
		{[]string{"--bogus"}, true, "error: unknown flag: --bogus"},
		{[]string{"-x"}, true, "error: unknown shorthand flag: 'x' in -x"},
	} {
		fs := newFlagSet("t")
		fs.SetInterspersed(c.interspersed)
		cmd := fs.BoolP("command", "c", false, "")
		help := fs.BoolP("help", "h", false, "")
		json := fs.Bool("json", true, "")
		n := fs.Int("n", 7, "")
		shell := fs.String("shell", "bash", "")
		timeout := durationFlag(0)
		fs.Var(&timeout, "timeout", "")
		var got string
		if err := fs.Parse(c.args); err != nil {
			got = "error: " + err.Error()
		} else {
			got = strings.Join([]string{"c=" + strconvBool(*cmd), "t=" + timeout.String(), "n=" + strconvInt(*n), "s=" + *shell, "[" + strings.Join(fs.Args(), " ") + "]"}, " ")
			if *help {
				got += " help"
			}
			if slices.Contains(c.args, "--json=false") && *json {
				got += " json not cleared"
			}
		}
		if got != c.want {
			t.Errorf("%q: got %s, want %s", c.args, got, c.want)
		}
	}
}

func strconvBool(b bool) string { return strconv.FormatBool(b) }
func strconvInt(i int) string   { return strconv.Itoa(i) }

// The job commands' usage errors are pflag's (internal/flagset): the
// parser shexec had before it named the whole word for an unknown
// shorthand (-hx), the spelling used for a bad value (-h=maybe) and said
// "unknown flag" for a bad syntax (---x).
func TestJobsUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"jobs", "-hx"}, "shexec jobs: unknown shorthand flag: 'x' in -x\n"},
		{[]string{"logs", "-x"}, "shexec logs: unknown shorthand flag: 'x' in -x\n"},
		{[]string{"jobs", "---x"}, "shexec jobs: bad flag syntax: ---x\n"},
		{[]string{"jobs", "--bogus"}, "shexec jobs: unknown flag: --bogus\n"},
		{[]string{"jobs", "-h=maybe"}, `shexec jobs: invalid argument "maybe" for "-h, --help" flag: strconv.ParseBool: parsing "maybe": invalid syntax` + "\n"},
		{[]string{"wait", "--timeout", "soon", "x"}, `shexec wait: invalid argument "soon" for "--timeout" flag: "soon" is neither a duration (500ms, 2m) nor a number of seconds` + "\n"},
		{[]string{"logs", "--limit"}, "shexec logs: flag needs an argument: --limit\n"},
	} {
		var out, errb strings.Builder
		code := runJobsCommand(c.args[0], c.args[1:], &out, &errb)
		want := c.want + "Run 'shexec " + c.args[0] + " --help' for usage.\n"
		if code != exitUsage || out.String() != "" || errb.String() != want {
			t.Errorf("shexec %q: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, out.String(), errb.String(), exitUsage, want)
		}
	}
}
