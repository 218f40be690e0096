//go:build linux

package main

import (
	"slices"
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

func strconvBool(b bool) string { return (*boolValue)(&b).String() }
func strconvInt(i int) string   { return (*intValue)(&i).String() }
