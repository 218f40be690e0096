//go:build !linux

package main

import (
	"fmt"
	"os"
	"runtime"
)

// The MCP server runs its commands with shexec's engine, which needs Linux
// (see cmd/shexec/main_other.go).
func main() {
	fmt.Fprintf(os.Stderr, "shexec-mcp: not supported on %s yet (it needs Linux: a child subreaper, pidfds, /proc)\n", runtime.GOOS)
	os.Exit(125)
}
