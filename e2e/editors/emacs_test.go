//go:build unix

package editors

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Emacs's eglot (Debian 12: Emacs 28 with elpa-eglot 1.9) shows
// shguard's diagnostics through flymake and applies its fix-all action.
func TestEmacsEglotFixesTheFile(t *testing.T) {
	bin := optIn(t)
	if _, err := exec.LookPath("emacs"); err != nil {
		t.Skip("emacs is not installed (apt-get install emacs-nox elpa-eglot)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init (eglot's project): %v %s", err, out)
	}
	file := filepath.Join(dir, "start.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	resultFile := filepath.Join(dir, "result.json")
	el, _ := filepath.Abs("eglot_test.el")
	env := []string{"SHGUARD=" + bin, "SCRIPT=" + file, "RESULT=" + resultFile, "HOME=" + dir}
	out := run(t, 90*time.Second, env, "emacs", "--batch", "-q", "-l", el)
	b, err := os.ReadFile(resultFile)
	if err != nil {
		t.Fatalf("emacs wrote no result: %v\n%s", err, out)
	}
	var r struct {
		Error       string `json:"error"`
		Action      string `json:"action"`
		Diagnostics []struct {
			Line int    `json:"line"`
			Text string `json:"text"`
			Type string `json:"type"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if r.Error != "" {
		t.Fatalf("emacs: %s\n%s", r.Error, out)
	}
	t.Logf("flymake: %+v", r.Diagnostics)
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Line != 3 || !strings.Contains(r.Diagnostics[0].Text, "SG1002") || r.Diagnostics[0].Type != "eglot-error" {
		t.Errorf("flymake's diagnostics: %+v", r.Diagnostics)
	}
	got, _ := os.ReadFile(file)
	if want := cliFix(t, bin, script); string(got) != want {
		t.Errorf("Emacs saved\n%s\nshguard --fix prints\n%s", got, want)
	}
}
