//go:build !linux && !darwin && !freebsd

package main

import (
	"fmt"
	"os"
	"runtime"
)

// The MCP server runs its commands with shexec's engine, which runs on
// Linux, macOS and FreeBSD (see cmd/shexec/main_other.go). Elsewhere it
// says so, with exit status 125, instead of running commands unguarded.
func main() {
	fmt.Fprintf(os.Stderr, "shexec-mcp: not supported on %s yet (it runs on Linux, macOS and FreeBSD)\n", runtime.GOOS)
	os.Exit(125)
}
