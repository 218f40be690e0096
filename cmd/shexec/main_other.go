//go:build !linux && !darwin && !freebsd

package main

import (
	"fmt"
	"os"
	"runtime"
)

// shexec runs on Linux, macOS and FreeBSD: process listing, process
// groups and (where there is one) a subreaper are how it finds, stops and
// reaps what a command leaves behind (see the platform
// table in README). Elsewhere it says so, with the exit status it uses
// for "shexec itself failed", instead of running commands unguarded; the
// linter and hook (shguard) work on every platform.
func main() {
	fmt.Fprintf(os.Stderr, "shexec: not supported on %s yet (it runs on Linux, macOS and FreeBSD); shguard, the linter and hook, works here\n", runtime.GOOS)
	os.Exit(125)
}
