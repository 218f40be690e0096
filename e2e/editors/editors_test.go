//go:build unix

// Package editors drives real editors' LSP clients against `shguard lsp`.
// The tests are opt-in (SHGUARD_E2E_EDITORS=1): they need the editors
// installed (.ci/run installs Debian's neovim and, with npm,
// bash-language-server in this directory).
package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// optIn skips unless SHGUARD_E2E_EDITORS is set, and returns the built
// shguard.
func optIn(t *testing.T) string {
	t.Helper()
	if os.Getenv("SHGUARD_E2E_EDITORS") == "" {
		t.Skip("set SHGUARD_E2E_EDITORS=1 to drive real editors")
	}
	bin := filepath.Join(t.TempDir(), "shguard")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/shguard").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs an editor command in its own process group, killed with
// everything it started when the test ends or the time is up.
func run(t *testing.T, timeout time.Duration, env []string, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // language servers left behind
	if ctx.Err() != nil {
		t.Fatalf("%s timed out after %v:\n%s", name, timeout, out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return out
}

// cliFix is `shguard --fix FILE` for a copy of the script.
func cliFix(t *testing.T, bin, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.sh")
	os.WriteFile(path, []byte(text), 0o644)
	out, err := exec.Command(bin, "--fix", path).Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out)
}

type nvimResult struct {
	Error       string `json:"error"`
	Diagnostics []struct {
		Code     string `json:"code"`
		Lnum     int    `json:"lnum"`
		Col      int    `json:"col"`
		EndCol   int    `json:"end_col"`
		Severity int    `json:"severity"`
		Source   string `json:"source"`
		Href     string `json:"href"`
	} `json:"diagnostics"`
	Bashls []struct {
		Code   string `json:"code"`
		Source string `json:"source"`
	} `json:"bashls"`
	BashlsSymbols int      `json:"bashls_symbols"`
	Hover         string   `json:"hover"`
	Actions       []string `json:"actions"`
	After         []string `json:"after"`
}

// nvim opens text in headless Neovim with shguard lsp (and bashLS, when
// not ""), applies the first code action whose title starts with action,
// saves, and returns what happened and the file.
func nvim(t *testing.T, bin, bashLS, text, action string) (nvimResult, string) {
	t.Helper()
	if _, err := exec.LookPath("nvim"); err != nil {
		t.Skip("nvim is not installed (apt-get install neovim)")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "start.sh")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	resultFile := filepath.Join(dir, "result.json")
	lua, _ := filepath.Abs("nvim_test.lua")
	env := []string{"SHGUARD=" + bin, "RESULT=" + resultFile, "ACTION=" + action, "BASH_LS=" + bashLS, "HOME=" + dir, "XDG_STATE_HOME=" + dir, "XDG_DATA_HOME=" + dir}
	out := run(t, 90*time.Second, env, "nvim", "--headless", "--clean", "-u", lua, file)
	b, err := os.ReadFile(resultFile)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var r nvimResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if r.Error != "" {
		t.Fatalf("nvim: %s\n%s", r.Error, b)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return r, string(got)
}

const script = "#!/bin/bash\n# start the web app for the tests\ncd \"$1\" && npm run dev &\nsleep 5\n"

func TestNeovimAppliesTheFix(t *testing.T) {
	bin := optIn(t)
	r, file := nvim(t, bin, "", script, "Fix SG1002")
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Code != "SG1002" {
		t.Fatalf("diagnostics: %+v", r.Diagnostics)
	}
	d := r.Diagnostics[0]
	if d.Lnum != 2 || d.Col != 0 || d.EndCol != len(`cd "$1" && npm run dev &`) || d.Severity != 1 || d.Source != "shguard" || !strings.HasSuffix(d.Href, "/SG1002.md") {
		t.Errorf("diagnostic as Neovim has it: %+v", d)
	}
	if !strings.Contains(r.Hover, "SG1002 compound-background") {
		t.Errorf("hover: %q", r.Hover)
	}
	if want := cliFix(t, bin, script); file != want {
		t.Errorf("Neovim saved\n%s\nshguard --fix prints\n%s", file, want)
	}
	// the fix ends the wait (SG1002); npm still holds the output (SG1001),
	// which has no fix that keeps behaviour
	if strings.Join(r.After, ",") != "SG1001" {
		t.Errorf("after the fix: %v, want [SG1001]", r.After)
	}
	t.Logf("actions offered: %q", r.Actions)
}

func TestNeovimDisablesForTheStatement(t *testing.T) {
	bin := optIn(t)
	r, file := nvim(t, bin, "", script, "Disable SG1002")
	want := strings.Replace(script, "cd \"$1\"", "# shguard disable=SG1002,SG2001 -- TODO: say why this is intended\ncd \"$1\"", 1)
	if file != want {
		t.Errorf("Neovim saved\n%s\nwant\n%s", file, want)
	}
	if len(r.After) != 0 {
		t.Errorf("after the directive: %v", r.After)
	}
}

// Both servers on one buffer: each publishes its own diagnostics, and
// bash-language-server still answers its own requests.
func TestNeovimBesideBashLanguageServer(t *testing.T) {
	bin := optIn(t)
	bashLS, _ := filepath.Abs("node_modules/.bin/bash-language-server")
	if _, err := os.Stat(bashLS); err != nil {
		if bashLS, err = exec.LookPath("bash-language-server"); err != nil {
			t.Skip("bash-language-server is not installed (npm install in e2e/editors)")
		}
	}
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed: bash-language-server would publish no diagnostics to tell it is there")
	}
	text := script + "greet() {\n  echo hello $1\n}\n"
	r, file := nvim(t, bin, bashLS, text, "Fix all shguard problems")
	if len(r.Diagnostics) == 0 || r.Diagnostics[0].Code != "SG1002" {
		t.Errorf("shguard's diagnostics: %+v", r.Diagnostics)
	}
	var sc bool
	for _, d := range r.Bashls {
		sc = sc || strings.Contains(d.Code, "2086") // unquoted $1
	}
	if !sc {
		t.Errorf("bash-language-server's diagnostics: %+v", r.Bashls)
	}
	if r.BashlsSymbols == 0 {
		t.Errorf("bash-language-server listed no symbols (greet)")
	}
	if want := cliFix(t, bin, text); file != want {
		t.Errorf("Neovim saved\n%s\nwant\n%s", file, want)
	}
}
