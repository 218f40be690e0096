package playground

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/shguard/shguard/corpus"
)

// Check prints what the CLI prints for the same flags, byte for byte: the
// JSON, the fixed text and the diff, on a sample of the corpus in every
// shell it names. (The browser test, e2e/playground, holds the page built
// from this to the same, in Chromium.)
func TestCheckIsTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the CLI")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "shguard")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/shguard").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cli := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out)
	}
	reqs := []Request{{Source: "cd /tmp && python3 -m http.server &"}, {Source: "if true; then", Shell: "bash"}}
	for i, e := range corpus.Load() {
		if i%40 == 0 {
			reqs = append(reqs, Request{Source: e.Cmd, Shell: e.Shell, Caller: string(e.Caller)})
		}
	}
	reqs = append(reqs, Request{Source: "#!/bin/zsh\ncd app && npm run dev &\n", Script: true, Style: "brace", Caller: "group"})
	for _, r := range reqs {
		flags := []string{"--norc"}
		if r.Shell != "" {
			flags = append(flags, "-s", r.Shell)
		}
		if r.Caller != "" {
			flags = append(flags, "--caller", r.Caller)
		}
		if r.Style != "" {
			flags = append(flags, "--style", r.Style)
		}
		if r.Script {
			if err := os.WriteFile(filepath.Join(dir, r.Name()), []byte(r.Source), 0o644); err != nil {
				t.Fatal(err)
			}
			flags = append(flags, r.Name())
		} else {
			flags = append(flags, "-c", r.Source)
		}
		got := Check(r)
		if got.Error != "" {
			t.Fatalf("%q: %s", r.Source, got.Error)
		}
		if want := cli(append([]string{"-f", "json"}, flags...)...); got.JSON != want {
			t.Errorf("%q: JSON\n%s\nthe CLI's\n%s", r.Source, got.JSON, want)
		}
		if got.ParseError {
			continue
		}
		if want := cli(append([]string{"--fix"}, flags...)...); got.Fixed != want {
			t.Errorf("%q: fixed %q, the CLI's %q", r.Source, got.Fixed, want)
		}
		if want := cli(append([]string{"-f", "diff"}, flags...)...); got.Diff != want {
			t.Errorf("%q: diff\n%s\nthe CLI's\n%s", r.Source, got.Diff, want)
		}
	}
	t.Logf("%d requests", len(reqs))
}
