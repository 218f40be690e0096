//go:build !linux

package main

import (
	"fmt"
	"os"
	"runtime"
)

// shexec needs Linux today: a child subreaper, pidfds and /proc are how it
// finds, stops and reaps what a command leaves behind (see the platform
// table in README). Elsewhere it says so, with the exit status it uses
// for "shexec itself failed", instead of running commands unguarded; the
// linter and hook (shguard) work on every platform.
func main() {
	fmt.Fprintf(os.Stderr, "shexec: not supported on %s yet (it needs Linux: a child subreaper, pidfds, /proc); shguard, the linter and hook, works here\n", runtime.GOOS)
	os.Exit(125)
}
