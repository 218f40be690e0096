//go:build linux || darwin || freebsd

package main

import (
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"syscall"
)

// mcpProgram is the MCP server's own program (cmd/shexec-mcp). shexec
// does not link the server: the MCP SDK's package initialisation would be
// paid by every `shexec -c`, and make runs one per recipe.
const mcpProgram = "shexec-mcp"

// runMCP is `shexec mcp`: it becomes shexec-mcp (exec, same pid), found
// next to shexec's own executable, else on PATH.
func runMCP(args []string, stderr io.Writer) int {
	path := ""
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), mcpProgram); isExecutable(p) {
			path = p
		}
	}
	if path == "" {
		p, err := osexec.LookPath(mcpProgram)
		if err != nil {
			fmt.Fprintf(stderr, "shexec mcp: %s is not installed next to shexec or on PATH: go install github.com/shguard/shguard/cmd/%s@latest\n", mcpProgram, mcpProgram)
			return exitUsage
		}
		path = p
	}
	err := syscall.Exec(path, append([]string{"shexec mcp"}, args...), os.Environ())
	fmt.Fprintf(stderr, "shexec mcp: %s: %v\n", path, err)
	return exitUsage
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
