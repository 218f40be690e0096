package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
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
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	order := map[string]int{}
	for i, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i + 1
		}
	}
	first, parser := order["github.com/shguard/shguard/internal/startstack"], order["mvdan.cc/sh/v3/fileutil"]
	if first == 0 || parser == 0 || first > parser {
		t.Errorf("startstack initialised at line %d, the parser's fileutil at %d:\n%s", first, parser, out)
	}
}
