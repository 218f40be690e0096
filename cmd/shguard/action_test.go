package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default string `json:"default"`
	} `json:"inputs"`
	Runs struct {
		Using string `json:"using"`
		Steps []struct {
			ID    string            `json:"id"`
			Uses  string            `json:"uses"`
			Shell string            `json:"shell"`
			Run   string            `json:"run"`
			Env   map[string]string `json:"env"`
		} `json:"steps"`
	} `json:"runs"`
}

// loadAction reads ../../action.yml through Python's yaml (pre-commit's
// dependency, which .ci/run installs); the test skips without it.
func loadAction(t *testing.T) (action, string) {
	t.Helper()
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	out, err := exec.Command(py, "-c", "import json,sys,yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", "../../action.yml").CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "No module named 'yaml'") {
			t.Skip("Python's yaml is not installed (python3-yaml)")
		}
		t.Fatalf("action.yml is not YAML: %v\n%s", err, out)
	}
	var a action
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	return a, string(raw)
}

// The GitHub Action is a composite action whose inputs are all used and
// whose lint step, run as the runner runs it (each input in the step's
// environment, shguard on PATH), lints what it should and fails when it
// should.
func TestAction(t *testing.T) {
	a, raw := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\$\{\{ inputs\.([a-z-]+) \}\}`).FindAllStringSubmatch(raw, -1) {
		used[m[1]] = true
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but never used", name)
		}
	}
	var lint *struct {
		ID    string            `json:"id"`
		Uses  string            `json:"uses"`
		Shell string            `json:"shell"`
		Run   string            `json:"run"`
		Env   map[string]string `json:"env"`
	}
	for i := range a.Runs.Steps {
		if a.Runs.Steps[i].ID == "lint" {
			lint = &a.Runs.Steps[i]
		}
	}
	if lint == nil || lint.Shell != "bash" {
		t.Fatal("action.yml has no bash step with id lint")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}

	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "shguard"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo := t.TempDir()
	files := map[string]string{
		"bad.sh":          "cd app && npm run dev &\n",
		"ok.sh":           "echo ok\n",
		"tool":            "#!/bin/sh\nsleep 9 &\n",
		"notes.txt":       "sleep 9 &\n",
		"scripts/a/b.sh":  "./server >/dev/null 2>&1 &\n",
		"scripts/warn.sh": "./w >/dev/null 2>&1 &\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	run := func(inputs map[string]string) (string, int) {
		t.Helper()
		cmd := exec.Command("bash", "-c", lint.Run)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GITHUB_OUTPUT="+filepath.Join(repo, "github_output"))
		for k, v := range lint.Env {
			m := regexp.MustCompile(`^\$\{\{ inputs\.([a-z-]+) \}\}$`).FindStringSubmatch(v)
			if m == nil {
				t.Fatalf("env %s = %q: want ${{ inputs.NAME }}", k, v)
			}
			val, ok := inputs[m[1]]
			if !ok {
				val = a.Inputs[m[1]].Default
			}
			cmd.Env = append(cmd.Env, k+"="+val)
		}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}

	// Defaults: every shell script git knows, by extension or shebang;
	// annotations; an error fails the step.
	out, code := run(nil)
	if code != 1 {
		t.Errorf("defaults: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"::error file=bad.sh,", "::error file=tool,", "::warning file=scripts/a/b.sh,", "::warning file=scripts/warn.sh,"} {
		if !strings.Contains(out, want) {
			t.Errorf("defaults: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "notes.txt") {
		t.Errorf("defaults: linted notes.txt (no shell extension or shebang)\n%s", out)
	}

	// paths with ** and fail-on warning.
	out, code = run(map[string]string{"paths": "scripts/**/*.sh", "fail-on": "warning"})
	if code != 1 || strings.Contains(out, "bad.sh") || !strings.Contains(out, "file=scripts/a/b.sh") {
		t.Errorf("paths scripts/**/*.sh, fail-on warning: exit %d\n%s", code, out)
	}
	out, code = run(map[string]string{"paths": "scripts/**/*.sh"})
	if code != 0 {
		t.Errorf("warnings only, fail-on error: exit %d, want 0\n%s", code, out)
	}
	out, code = run(map[string]string{"fail-on": "never"})
	if code != 0 || !strings.Contains(out, "::error file=bad.sh,") {
		t.Errorf("fail-on never: exit %d\n%s", code, out)
	}

	// sarif: the report is written and named in the step's outputs.
	out, code = run(map[string]string{"format": "sarif", "sarif-file": "out.sarif"})
	if code != 1 {
		t.Errorf("sarif: exit %d, want 1\n%s", code, out)
	}
	var log struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	b, err := os.ReadFile(filepath.Join(repo, "out.sarif"))
	if err != nil || json.Unmarshal(b, &log) != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) < 4 {
		t.Errorf("sarif: out.sarif is not a report of the findings: %v\n%s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "github_output")); !strings.Contains(string(b), "sarif-file=out.sarif") {
		t.Errorf("sarif: GITHUB_OUTPUT has no sarif-file: %q", b)
	}

	// Bad inputs are errors the log explains.
	out, code = run(map[string]string{"format": "checkstyle"})
	if code != 2 || !strings.Contains(out, "format must be github or sarif") {
		t.Errorf("format checkstyle: exit %d\n%s", code, out)
	}
}
