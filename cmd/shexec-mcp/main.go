//go:build linux || darwin || freebsd

// Command shexec-mcp is the MCP server of `shexec mcp` (docs/mcp.md). It is
// a program of its own so that shexec, started once per shell command,
// does not carry the MCP SDK and what it imports (net/http, crypto/tls,
// JSON schema): their package initialisation alone cost about 1.5 ms at
// every shexec start (bench/shexec.sh, GODEBUG=inittrace=1). `shexec mcp`
// runs this program from shexec's own directory, or from PATH.
package main

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/shguard/shguard/exec"
	"github.com/shguard/shguard/mcpserver"
)

const exitUsage = 125

func main() {
	exec.MaybeSupervise() // the server's jobs are supervised by this program re-executed
	exec.MaybeWatchdog()
	os.Exit(runMCP(os.Args[1:], os.Stdout, os.Stderr))
}

// lighterSupervisor is the shexec next to this program when it is the same
// build (module version and VCS revision, read from both binaries): a run
// that goes on as a job gets a supervisor, and shexec starts about 1.5 ms
// faster than this program, which links the MCP SDK. "" (this program)
// otherwise.
func lighterSupervisor() string {
	self, err := os.Executable()
	if err != nil {
		return ""
	}
	other := filepath.Join(filepath.Dir(self), "shexec")
	a, err1 := buildinfo.ReadFile(self)
	b, err2 := buildinfo.ReadFile(other)
	if err1 != nil || err2 != nil || a.Main.Path != b.Main.Path || a.Main.Version != b.Main.Version || setting(a, "vcs.revision") != setting(b, "vcs.revision") ||
		setting(a, "vcs.modified") == "true" || setting(b, "vcs.modified") == "true" || a.Main.Version == "(devel)" && setting(a, "vcs.revision") == "" {
		return ""
	}
	return other
}

func setting(bi *buildinfo.BuildInfo, key string) string {
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// durationFlag is a flag holding a Go duration or bare seconds.
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }
func (d *durationFlag) Type() string   { return "duration" }
func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		var secs float64
		if _, err2 := fmt.Sscanf(s, "%g", &secs); err2 != nil {
			return err
		}
		v = time.Duration(secs * float64(time.Second))
	}
	*d = durationFlag(v)
	return nil
}

const mcpUsage = `Usage: shexec mcp [flags]

Serves the Model Context Protocol on stdin/stdout: tools run, check, jobs,
logs, wait, write and kill. When stdin closes (the agent quits), every job
the server started is stopped, escapees included, unless --keep-jobs.
See docs/mcp.md for the agents' configuration.

Flags:
`

// runMCP is `shexec mcp`: flags here, the server in package mcpserver.
func runMCP(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("shexec mcp", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	timeout := durationFlag(mcpserver.DefaultTimeout)
	fs.Var(&timeout, "timeout", "default timeout of a run that names none (0: no limit)")
	keep := fs.Bool("keep-jobs", false, "leave the server's jobs running when the session ends")
	shell := fs.String("shell", "bash", "default shell of a run")
	maxOutput := fs.Int("max-output", mcpserver.DefaultMaxOutput, "bytes of output a run returns (head and tail)")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "shexec mcp: %v\n", err)
		return exitUsage
	}
	if *help {
		fmt.Fprint(stdout, mcpUsage+fs.FlagUsages())
		return 0
	}
	store, err := exec.OpenStore("")
	if err != nil {
		fmt.Fprintf(stderr, "shexec mcp: %v\n", err)
		return exitUsage
	}
	store.Supervisor = lighterSupervisor()
	srv, err := mcpserver.New(mcpserver.WithTimeout(time.Duration(timeout)), mcpserver.WithKeepJobs(*keep),
		mcpserver.WithShell(*shell), mcpserver.WithMaxOutput(*maxOutput), mcpserver.WithStore(store))
	if err != nil {
		fmt.Fprintf(stderr, "shexec mcp: %v\n", err)
		return exitUsage
	}
	// An agent that stops its server with a signal instead of closing
	// stdin ends the session too: the jobs are stopped all the same.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := srv.Serve(ctx, mcpserver.Stdio(os.Stdin, os.Stdout)); err != nil && err != io.EOF && ctx.Err() == nil {
		fmt.Fprintf(stderr, "shexec mcp: %v\n", err)
		return 1
	}
	return 0
}
