package main

import (
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
