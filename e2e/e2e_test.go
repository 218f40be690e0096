//go:build linux

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(runnerEnv); spec != "" {
		os.Exit(runner(spec))
	}
	os.Exit(m.Run())
}

// want filters by a comma list in env ("" keeps all).
func want(env, name string) bool {
	v := os.Getenv(env)
	if v == "" {
		return true
	}
	for _, w := range strings.Split(v, ",") {
		if strings.TrimSpace(w) == name {
			return true
		}
	}
	return false
}

// TestAgents runs every agent through every case, in each mode it
// supports, and checks the table in docs/agents.md against the results.
func TestAgents(t *testing.T) {
	if os.Getenv("SHGUARD_E2E") != "1" {
		t.Skip("opt-in: SHGUARD_E2E=1 go test ./e2e/ (installs the agents from npm, takes minutes)")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare is not installed: each run needs its own PID and network namespace")
	}
	if out, err := exec.Command(unshare, "-p", "-f", "--mount-proc", "-n", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -p -f --mount-proc -n does not work here (%v: %s): each run needs its own namespaces", err, out)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the agents are installed from npm")
	}
	bins := buildBins(t)
	jobs := 2
	if n, err := strconv.Atoi(os.Getenv("SHGUARD_E2E_JOBS")); err == nil && n > 0 {
		jobs = n
	}
	sem := make(chan struct{}, jobs)
	got := cells{}
	var mu sync.Mutex
	var rows []string
	start := time.Now()
	t.Run("runs", func(t *testing.T) {
		for _, a := range Agents() {
			if !want("SHGUARD_E2E_AGENTS", a.Name) {
				continue
			}
			modes := []string{"hook"}
			if a.MCP {
				modes = append(modes, "mcp")
			}
			installErr := a.Install()
			for _, mode := range modes {
				if !want("SHGUARD_E2E_MODES", mode) {
					continue
				}
				_, hooked := printConfig(bins, a)
				row := rowName(a, mode, hooked)
				rows = append(rows, row)
				for i := range cases {
					c := &cases[i]
					if !want("SHGUARD_E2E_CASES", c.Name) {
						continue
					}
					a, mode := a, mode
					t.Run(a.Name+"/"+mode+"/"+c.Name, func(t *testing.T) {
						if installErr != nil {
							mu.Lock()
							got.set(row, c.Name, "— not installable")
							mu.Unlock()
							t.Skipf("%s %s cannot be installed here: %v", a.Name, a.Version, installErr)
						}
						t.Parallel()
						sem <- struct{}{}
						defer func() { <-sem }()
						res := runIn(t, unshare, bins, a, c, mode)
						v := judge(res, a, c)
						if !v.OK && known {
							// A real agent on a loaded machine can miss a
							// limit once; a cell fails CI only when it
							// fails twice. The first run stays in the log.
							t.Logf("first run failed (%s), running once more: %s", v.Cell, strings.Join(v.Why, "; "))
							res = runIn(t, unshare, bins, a, c, mode)
							v = judge(res, a, c)
						}
						mu.Lock()
						got.set(row, c.Name, v.Cell)
						mu.Unlock()
						t.Logf("%s: %.1f s, exit %d, %d hook calls, %d tool calls; dir %s", v.Cell, res.Wall, res.Exit, len(res.Hook), len(res.Calls), res.Dir)
						if !v.OK {
							report(t, res, v, row, c.Name)
						}
					})
				}
			}
		}
	})
	t.Logf("all runs: %v", time.Since(start).Round(time.Second))
	checkTable(t, got, rows)
}

// known is SHGUARD_E2E_KNOWN=1 (CI): only a regression fails, a cell the
// table records as passing that fails in two runs one after the other. A
// cell the table records as failing that fails again (another way or not)
// or now passes, and a passing cell that passes another way, is logged.
var known = os.Getenv("SHGUARD_E2E_KNOWN") == "1"

// recorded is docs/agents.md's cell for row × case ("" none).
func recorded(row, c string) string {
	doc, err := os.ReadFile("../docs/agents.md")
	if err != nil {
		return ""
	}
	return readTable(string(doc))[row][c]
}

// report fails the run, unless known and docs/agents.md records the
// cell as failing already.
func report(t *testing.T, res *Result, v Verdict, row, c string) {
	msg := strings.Join(v.Why, "\n") + "\ndoctor: " + strings.TrimSpace(res.Doctor) + "\nhook answers:"
	for _, h := range res.Hook {
		msg += "\n  " + strings.TrimSpace(h.Output)
	}
	if was := recorded(row, c); known && strings.HasPrefix(was, "❌") {
		t.Logf("known failure (docs/agents.md: %s): %s", was, msg)
		return
	}
	t.Error(msg)
}

// checkTable compares the cells that ran with docs/agents.md, or
// rewrites them there (SHGUARD_E2E_UPDATE=1).
func checkTable(t *testing.T, got cells, rows []string) {
	const path = "../docs/agents.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := readTable(string(b))
	if os.Getenv("SHGUARD_E2E_UPDATE") == "1" {
		if doc == nil {
			doc = cells{}
		}
		for r, cs := range got {
			for c, cell := range cs {
				doc.set(r, c, cell)
			}
		}
		all := rows
		for r := range doc {
			if !contains(all, r) {
				all = append(all, r)
			}
		}
		if err := writeTable(path, renderTable(doc, sortedRows(all))); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, c := range cases {
		if !strings.Contains(string(b), legend(c)+"\n") {
			t.Errorf("docs/agents.md does not describe case %s as e2e/cases.go does (SHGUARD_E2E_UPDATE=1 rewrites it):\n%s", c.Name, legend(c))
		}
	}
	for r, cs := range got {
		for c, cell := range cs {
			if doc[r][c] != cell {
				// Under known, only a regression fails: a cell recorded
				// as passing that now fails. Another passing outcome
				// (changed where the table says refused, say) is logged.
				if known && (!strings.HasPrefix(doc[r][c], "✅") || strings.HasPrefix(cell, "✅")) {
					t.Logf("docs/agents.md says %q for %s × %s, the run gave %q: update the table (SHGUARD_E2E_UPDATE=1)", doc[r][c], r, c, cell)
					continue
				}
				t.Errorf("docs/agents.md says %q for %s × %s, the run gave %q (SHGUARD_E2E_UPDATE=1 rewrites the table)", doc[r][c], r, c, cell)
			}
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// sortedRows orders rows as the agents and modes are ordered.
func sortedRows(rows []string) []string {
	var out []string
	for _, a := range Agents() {
		for _, m := range []string{"hook", "mcp"} {
			for _, hooked := range []bool{true, false} {
				if r := rowName(a, m, hooked); contains(rows, r) && !contains(out, r) {
					out = append(out, r)
				}
			}
		}
	}
	for _, r := range rows {
		if !contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// buildBins builds shguard, shexec and shexec-mcp from this tree;
// SHGUARD_E2E_SHGUARD names another shguard to drive instead (another
// branch's, a release).
func buildBins(t *testing.T) string {
	dir := t.TempDir()
	if other := os.Getenv("SHGUARD_E2E_SHGUARD"); other != "" {
		if err := os.Symlink(other, filepath.Join(dir, "shguard")); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"shguard", "shexec", "shexec-mcp"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			continue
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, p), "../cmd/"+p)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", p, err, out)
		}
	}
	return dir
}

// runIn runs one agent × case × mode in its own namespaces: the test
// binary re-executed under unshare as the runner.
func runIn(t *testing.T, unshare, bins string, a *Agent, c *Case, mode string) *Result {
	dir := t.TempDir()
	if out := os.Getenv("SHGUARD_E2E_OUT"); out != "" {
		dir = filepath.Join(out, strings.ReplaceAll(a.Name, " ", "")+"-"+mode+"-"+c.Name)
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	spec := Spec{Agent: a.Name, Case: c.Name, Mode: mode, Dir: dir, Bins: bins, Timeout: hardTimeout}
	b, _ := json.Marshal(spec)
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hardTimeout+60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, unshare, "-p", "-f", "--mount-proc", "-n", "--", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), runnerEnv+"="+specPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("runner: %v\n%s", err, out)
	}
	var res Result
	b, err = os.ReadFile(filepath.Join(dir, "result.json"))
	if err == nil {
		err = json.Unmarshal(b, &res)
	}
	if err != nil {
		t.Fatalf("runner left no result: %v", err)
	}
	return &res
}
