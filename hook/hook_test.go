package hook

import (
	"os"

	"fmt"
	"github.com/shguard/shguard/analyze"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The commands the hook hands back do not hang a reader of their output,
// the way an agent's tool reads it: stdout and stderr into one pipe, read
// to EOF. The originals would, for as long as the sleeps run.
func TestRewrittenCommandsDoNotHang(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	for _, cmd := range []string{
		"sleep 3 & echo started",
		"cd / && sleep 3 & echo started",
		"true | sleep 3 & echo started",
		"if true; then sleep 3 & fi; echo started",
		"x=$(sleep 3 &); echo started",
		"start() { sleep 3 & }; start; start; echo started", // one edit per job, however often called
		"cd / && sleep 3 >/dev/null 2>&1 & echo started",
		// inside a nested string: fixed there, not refused
		"bash -c 'sleep 3 & echo started'",
		`bash -c "cd / && sleep 3 & echo started"`,
		"sh -c 'sleep 3 & echo started'",
		`bash -c "sleep 3 & echo started"`,       // a job inside a nested string
		`sh -c 'cd / && sleep 3 & echo started'`, // fixed in place, in single quotes
	} {
		n := 0
		out, err := Decide(cmd, Options{LogFile: func(int) string { n++; return filepath.Join(dir, fmt.Sprintf("job%d.log", n)) }})
		if err != nil || !out.Changed || out.Deny != "" {
			t.Fatalf("Decide(%q) = %+v, %v; want a rewrite", cmd, out, err)
		}
		c := exec.Command("bash", "-c", out.Command)
		c.Dir = dir
		start := time.Now()
		b, err := c.CombinedOutput()
		if err != nil || strings.TrimSpace(string(b)) != "started" {
			t.Errorf("%q -> %q: output %q, %v", cmd, out.Command, b, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%q -> %q: the reader waited %v", cmd, out.Command, d)
		}
	}
}

func TestDenyMode(t *testing.T) {
	out, err := Decide("./server & sleep 1", Options{Mode: ModeDeny})
	if err != nil || out.Deny == "" || out.Changed || !strings.Contains(out.Deny, "run_in_background") {
		t.Fatalf("Decide = %+v, %v", out, err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/a.log":      "/tmp/a.log",
		"/tmp/my logs/x":  "'/tmp/my logs/x'",
		"/tmp/it's/x.log": `'/tmp/it'\''s/x.log'`,
	} {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A never-ending foreground command becomes a log-file job that returns
// with its first lines and names its pid, log and stop command, under
// each shell the agents run; the stop command then ends it and the
// program it started (with setsid: its whole group; without: its process
// tree).
func TestManagedJobRuns(t *testing.T) {
	for _, sh := range []string{"bash", "dash", "zsh", "mksh"} {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		for _, setsid := range []bool{false, true} {
			if _, err := exec.LookPath("setsid"); setsid && err != nil {
				continue
			}
			dir := t.TempDir()
			seen := filepath.Join(dir, "seen")
			if err := os.WriteFile(seen, []byte("first line\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			lang, _ := analyze.ParseLang(sh)
			opt := Options{Lang: lang, Find: func(p string) string {
				if path, err := exec.LookPath(p); err == nil && setsid && p == "setsid" {
					return path
				}
				return ""
			}, LogFile: func(n int) string { return filepath.Join(dir, fmt.Sprintf("job%d.log", n)) }}
			// a wrapper that never ends, around the follower: the stop
			// command must reach the child too
			out, err := Decide("tail -f "+seen+"; echo never", opt)
			if err != nil || !out.Forever || len(out.Logs) != 1 {
				t.Fatalf("%s: Decide = %+v, %v; want a managed job", sh, out, err)
			}
			pidf := pidFile(out.Logs[0])
			t.Cleanup(func() {
				if b, err := os.ReadFile(pidf); err == nil {
					exec.Command("kill", "-9", "--", strings.TrimSpace(string(b))).Run()
					exec.Command("pkill", "-9", "-f", "tail -f "+seen).Run()
				}
			})
			c := exec.Command(sh, "-c", out.Command)
			start := time.Now()
			b, err := c.CombinedOutput()
			if err != nil || !strings.Contains(string(b), "first line") || !strings.Contains(string(b), "stop it with: kill") {
				t.Errorf("%s setsid=%v: %q -> output %q, %v", sh, setsid, out.Command, b, err)
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Errorf("%s: the job's first lines took %v", sh, d)
			}
			stop := stopJob(pidf)
			if setsid {
				stop = "kill -- -$(cat " + pidf + ")"
			}
			if err := exec.Command("sh", "-c", stop).Run(); err != nil {
				t.Errorf("%s: %s: %v", sh, stop, err)
			}
			time.Sleep(200 * time.Millisecond)
			if exec.Command("pgrep", "-f", "tail -f "+seen).Run() == nil {
				t.Errorf("%s setsid=%v: the follower outlived its job's stop command", sh, setsid)
			}
		}
	}
}
