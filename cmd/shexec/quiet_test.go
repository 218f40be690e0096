//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBriefLeftoversWaitedOut: brief background work (what the analysis
// calls brief) is waited for as bash's caller would, with no line on stderr
// and no job; its output still reaches the caller.
func TestBriefLeftoversWaitedOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "brief.sh")
	os.WriteFile(file, []byte("sleep 0.2 & echo from-file\n"), 0o644)
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{args: []string{"-c", "sleep 0.2 & echo hi"}},
		{args: []string{"-c", "(sleep 0.3; echo late) & echo hi"}},
		{args: []string{"-c", "sleep 0.2 >/dev/null & echo redirected"}},
		{args: []string{"-lc", "true & sleep 0.25 & echo login"}},
		{args: []string{file}},
		{args: []string{"-s"}, stdin: "sleep 0.2 & echo from-stdin\n"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			home := newHome(t)
			want := runShell(t, "bash", c.args, c.stdin)
			got := shexecStdin(t, home, c.stdin, c.args...)
			if got.stdout != want.stdout || got.stderr != "" || got.code != 0 {
				t.Errorf("got %q, stderr %q, exit %d; want %q and nothing on stderr", got.stdout, got.stderr, got.code, want.stdout)
			}
			if got.elapsed < 150*time.Millisecond {
				t.Errorf("returned after %v: the brief job was not waited for", got.elapsed)
			}
			if jobs := listJobs(t, home); len(jobs) != 0 {
				t.Errorf("jobs were created: %+v", jobs)
			}
		})
	}
}

// TestJobLine: work that goes on in a job is the one thing shexec tells on
// stderr, in one line naming the job and how to read it; --quiet and
// SHEXEC_QUIET=1 silence even that.
func TestJobLine(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "--promote=false", "-c", "sleep "+m+" & echo hi")
	j := findJob(t, home, "sleep "+m)
	want := "shexec: job " + j.ID + " holds what the command left running: sleep " + m + " (shexec logs " + j.ID + ", shexec kill " + j.ID + ")\n"
	if r.stdout != "hi\n" || r.stderr != want {
		t.Errorf("stdout %q, stderr %q; want %q", r.stdout, r.stderr, want)
	}
	// Longer than brief: not waited for.
	if r.elapsed > 900*time.Millisecond {
		t.Errorf("took %v", r.elapsed)
	}
	for _, quiet := range [][]string{{"--quiet"}, {"SHEXEC_QUIET=1"}} {
		m := marker(t)
		args := []string{"--promote=false", "-c", "sleep " + m + " & sleep 0.9 & echo hi"}
		var r shexecResult
		if strings.HasPrefix(quiet[0], "--") {
			r = shexecJob(t, home, append(quiet, args...)...)
		} else {
			r = shexecEnv(t, home, quiet, args...)
		}
		if r.stdout != "hi\n" || r.stderr != "" {
			t.Errorf("%s: stdout %q, stderr %q", quiet[0], r.stdout, r.stderr)
		}
		findJob(t, home, "sleep "+m)
	}
}

// shexecStdin is shexecJob with stdin.
func shexecStdin(t *testing.T, home, stdin string, args ...string) shexecResult {
	t.Helper()
	return runAsMain(t, home, "", nil, stdin, args...)
}

// shexecEnv is shexecJob with more environment.
func shexecEnv(t *testing.T, home string, env []string, args ...string) shexecResult {
	t.Helper()
	return runAsMain(t, home, "", env, "", args...)
}
