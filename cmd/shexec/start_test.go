//go:build linux

package main

import (
	osexec "os/exec"
	"strings"
	"testing"

	"github.com/shguard/shguard/corpus"
	"github.com/shguard/shguard/internal/startstack/startstacktest"
)

// exec.Run asks the planner for a plan only when the script contains a
// '&' (exec.Planner), so that `shexec -c true` runs none of the analyzer.
// That loses nothing: a statement a plan promotes is a top-level
// background statement, always written with '&'. Work started in the
// background in other ways (coproc, setsid -f, nohup, a daemonizing
// program) is never promoted; leftover handling finds it at exit.
func TestPlanNeedsAmpersand(t *testing.T) {
	scripts := []struct{ shell, script string }{
		{"bash", "coproc sleep 100; echo hi"},
		{"bash", "coproc srv { sleep 100; }; echo hi"},
		{"zsh", "coproc sleep 100; echo hi"},
		{"mksh", "sleep 100 |& echo hi"},
		{"bash", "setsid -f sleep 100; echo hi"},
		{"bash", "nohup sleep 100 >/dev/null 2>&1; echo hi"},
		{"bash", "sleep 100 | cat; disown -a"},
		{"bash", "(setsid sleep 100 >/dev/null 2>&1 <&- &); echo hi"},
		{"bash", "bash -c 'sleep 100 &'; echo hi"},
		{"dash", "eval 'sleep 100 &'; echo hi"},
		{"bash", "sleep 100 & echo hi"}, // the control: a plan
		{"zsh", "sleep 100 &! echo hi"},
	}
	for _, e := range corpus.Load() {
		scripts = append(scripts, struct{ shell, script string }{e.Shell, e.Cmd})
		if e.Run != "" {
			scripts = append(scripts, struct{ shell, script string }{e.Shell, e.Run})
		}
	}
	planned := 0
	for _, s := range scripts {
		shell := s.shell
		if shell == "" {
			shell = "bash"
		}
		plan, err := planner(shell)(s.script)
		if err != nil || plan == nil || len(plan.Jobs) == 0 {
			continue
		}
		planned++
		if !strings.Contains(s.script, "&") {
			t.Errorf("%s: %q has a plan (%d jobs) without a '&'", shell, s.script, len(plan.Jobs))
		}
	}
	if planned < 10 {
		t.Errorf("only %d of %d scripts have a plan: is the planner working?", planned, len(scripts))
	}
	if plan, err := planner("fish")("sleep 100 & echo hi"); plan != nil || err != nil {
		t.Errorf("a shell without a language got a plan: %v, %v", plan, err)
	}
}

// internal/startstack grows the main goroutine's stack before the parser's
// package initialisation, which would grow it twice: shexec links both,
// and Go initialises packages in import-path order as far as their
// imports allow.
func TestStartStackFirst(t *testing.T) {
	if err := startstacktest.CheckFirst(osexec.Command(shexecBin, "--version")); err != nil {
		t.Error(err)
	}
}

// shexec starts once per command (make SHELL=, an agent's every tool call)
// and every package it links is initialised at every start: these were
// measured to cost that start more than they give (docs/benchmarks.md).
// net (pflag's import) would also make the default build dynamically
// linked; crypto/rand initialised a FIPS module.
func TestStartupDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := osexec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, p := range []string{"net", "runtime/cgo", "flag", "github.com/spf13/pflag", "crypto/rand", "encoding/xml", "encoding/csv"} {
		if deps[p] {
			t.Errorf("cmd/shexec links %s", p)
		}
	}
}
