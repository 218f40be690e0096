package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHooks runs the real pre-commit against a throwaway git
// repository with this checkout's .pre-commit-hooks.yaml: the shguard hook
// fails on a hanging script, shguard-fix rewrites it in place.
//
// Each try-repo builds the hook's environment with go install from a
// fresh copy of the module: about six minutes on a busy 2-core machine,
// more than the rest of the package's tests together. So it runs when
// SHGUARD_SLOW_TESTS is set, as .ci/run sets it, not in a plain
// `go test ./...`.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() || os.Getenv("SHGUARD_SLOW_TESTS") == "" {
		t.Skip("builds the hook environment with go install, twice (set SHGUARD_SLOW_TESTS=1; .ci/run does)")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("pre-commit not installed (apt-get install pre-commit)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("git", "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "a.sh")
	if err := os.WriteFile(script, []byte("cd /tmp && python3 -m http.server &\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run("git", "add", "a.sh"); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}

	out, err := run("pre-commit", "try-repo", root, "shguard", "--all-files")
	if err == nil || !strings.Contains(out, "[SG1002]") {
		t.Fatalf("hook shguard: want a failure reporting SG1002, got err=%v\n%s", err, out)
	}

	out, _ = run("pre-commit", "try-repo", root, "shguard-fix", "--all-files")
	fixed, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(fixed), "cd /tmp && exec python3 -m http.server &\n"; got != want {
		t.Fatalf("hook shguard-fix: a.sh = %q, want %q\n%s", got, want, out)
	}
}
