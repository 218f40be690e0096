// Package startstacktest checks, from a test, that a program initialises
// internal/startstack before the parser's packages: the point of
// startstack is to grow the stack before their initialisation would, and
// Go initialises packages in import-path order only as far as their
// imports allow, so the order is checked on the real binary.
package startstacktest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// CheckFirst runs cmd with GODEBUG=inittrace=1 and returns an error unless
// internal/startstack is initialised before mvdan.cc/sh/v3/fileutil.
func CheckFirst(cmd *exec.Cmd) error {
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	order := map[string]int{}
	for i, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i + 1
		}
	}
	first, parser := order["github.com/shguard/shguard/internal/startstack"], order["mvdan.cc/sh/v3/fileutil"]
	if first == 0 || parser == 0 || first > parser {
		return fmt.Errorf("startstack initialised at line %d, the parser's fileutil at %d:\n%s", first, parser, out)
	}
	return nil
}
