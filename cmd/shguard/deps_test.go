package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shguard/shguard/internal/startstack/startstacktest"
)

// shguard starts before every command an agent runs (shguard hook), and
// every package it links is initialised at every start. These packages
// were measured to cost that start more than they give the CLI: net (and
// with cgo, a dynamically linked binary: the loader's millisecond),
// encoding/xml, encoding/csv, and flag (docs/benchmarks.md, the hook row).
func TestStartupDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, p := range []string{"net", "runtime/cgo", "encoding/xml", "encoding/csv", "flag", "github.com/spf13/pflag"} {
		if deps[p] {
			t.Errorf("cmd/shguard links %s", p)
		}
	}
}

// internal/startstack grows the stack before the parser's package
// initialisation, which would otherwise grow it twice, deep in regexp
// compilation: this test binary links both, in the same order.
func TestStartStackFirst(t *testing.T) {
	if err := startstacktest.CheckFirst(exec.Command(os.Args[0], "-test.run=^$")); err != nil {
		t.Error(err)
	}
}

// TestNoStartupWork: none of shguard's own packages runs code when the
// program starts, except internal/startstack, whose work that is. Each
// package that did had its initialisation's page of the binary read in,
// and its data written, at every hook start (the lazy package says what
// that costs); a table is a composite literal the linker lays out, a
// regular expression a lazy.Regexp. GODEBUG=inittrace=1 names every
// package whose initialisation ran code, on the real binary and a clean
// hook call.
func TestNoStartupWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds shguard")
	}
	bin := filepath.Join(t.TempDir(), "shguard")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "hook")
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test && git status"}}`)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("shguard hook: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[0] == "init" && strings.HasPrefix(f[1], "github.com/shguard/shguard/") && f[1] != "github.com/shguard/shguard/internal/startstack" {
			t.Errorf("%s runs code at start-up: %s", f[1], l)
		}
	}
}
