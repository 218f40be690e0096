package main

import (
	"os"
	"os/exec"
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
