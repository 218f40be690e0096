//go:build linux

package main

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// shexecIn runs the command from dir ("" for the test's own) with home as
// SHEXEC_HOME and stdin /dev/null.
func shexecIn(t *testing.T, home, dir string, args ...string) shexecResult {
	t.Helper()
	return runAsMain(t, home, dir, nil, "", args...)
}

// runAsMain runs the test binary as shexec from dir with home as
// SHEXEC_HOME, env added to the environment and stdin ("" for /dev/null).
func runAsMain(t *testing.T, home, dir string, env []string, stdin string, args ...string) shexecResult {
	t.Helper()
	cmd := osexec.Command(os.Args[0], args...)
	cmd.Dir = dir
	// GORACE: under -race every process otherwise sleeps 1s at exit, which
	// would distort the timing checks.
	cmd.Env = append(append(os.Environ(), asMainEnv+"=1", "SHEXEC_HOME="+home, "SHEXEC_SESSION=", "GORACE=atexit_sleep_ms=0"), env...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := shexecResult{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if ee, ok := err.(*osexec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("shexec %q: %v", args, err)
	}
	return r
}

// TestCLIPromotion: a leading background statement becomes a managed job
// before the rest runs; the foreground returns at once, the job is listed as
// promoted, and `shexec kill` leaves nothing of it.
func TestCLIPromotion(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "-c", "sleep "+m+" & echo hi")
	if r.stdout != "hi\n" || r.code != 0 {
		t.Fatalf("got %q, exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	// Generous for a loaded machine; a held pipe would hang for the sleep's
	// whole (days-long) duration.
	if r.elapsed > 1500*time.Millisecond {
		t.Errorf("took %v", r.elapsed)
	}
	j := findJob(t, home, "sleep "+m)
	if j.Command != "sleep "+m || j.Origin != "promoted" || j.Status != "running" || !alive(j.PID) {
		t.Fatalf("job %+v, alive %v", j, alive(j.PID))
	}
	if want := "shexec: started job " + j.ID + ": sleep " + m + " (shexec logs " + j.ID + ", shexec kill " + j.ID + ")\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	if k := shexecJob(t, home, "kill", "--grace", "0.2", j.ID); k.code != 0 {
		t.Fatalf("kill: %d %s", k.code, k.stderr)
	}
	assertNoSurvivors(t, m)
}

// TestCLIPromotionKeepsShellState: the job runs where its statement would
// have (its own `cd`, and a `cd` before it), with the variables set before
// it, and the foreground goes on in its own state.
func TestCLIPromotionKeepsShellState(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecIn(t, home, t.TempDir(), "-c", "cd /tmp && sleep "+m+" & sleep 0.2; echo ok")
	if r.stdout != "ok\n" || r.code != 0 {
		t.Fatalf("got %q, exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	if j := findJob(t, home, "sleep "+m); j.Origin != "promoted" {
		t.Errorf("job %+v", j)
	}
	pids := survivors(m)
	if len(pids) == 0 {
		t.Fatal("the job is not running")
	}
	for _, pid := range pids {
		if cwd, _ := os.Readlink("/proc/" + itoa(pid) + "/cwd"); cwd != "/tmp" {
			t.Errorf("pid %d runs in %q, want /tmp", pid, cwd)
		}
	}

	m2 := marker(t)
	r = shexecJob(t, home, "-c", "export N="+m2+"; cd /; sleep $N & pwd")
	if r.stdout != "/\n" || r.code != 0 {
		t.Fatalf("got %q, exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	pids = survivors(m2)
	if len(pids) != 1 {
		t.Fatalf("sleep $N: %v", pids)
	}
	if cwd, _ := os.Readlink("/proc/" + itoa(pids[0]) + "/cwd"); cwd != "/" {
		t.Errorf("sleep $N runs in %q, want /", cwd)
	}
}

// TestCLINotPromoted: a job whose $! the script uses stays in the shell
// (and is adopted at exit), as does everything with --promote=false and
// with --leftovers kill.
func TestCLINotPromoted(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "-c", "sleep "+m+" & echo $!")
	pids := survivors(m)
	if len(pids) != 1 || strings.TrimSpace(r.stdout) != itoa(pids[0]) {
		t.Fatalf("stdout %q, sleeps %v", r.stdout, pids)
	}
	if j := findJob(t, home, "sleep "+m); j.Origin != "adopted" {
		t.Errorf("job %+v", j)
	}

	m = marker(t)
	r = shexecJob(t, home, "--promote=false", "-c", "sleep "+m+" & echo x")
	if j := findJob(t, home, "sleep "+m); r.stdout != "x\n" || j.Origin != "adopted" {
		t.Errorf("--promote=false: %q, job %+v", r.stdout, j)
	}

	m = marker(t)
	r = shexecJob(t, home, "--leftovers", "kill", "--grace", "0.2", "-c", "sleep "+m+" & echo y")
	if r.stdout != "y\n" || r.stderr != "" {
		t.Errorf("--leftovers kill: %q %q", r.stdout, r.stderr)
	}
	assertNoSurvivors(t, m)
}

// TestCLIPromotionLanguage: the plan follows --shell. `&>` is bash's
// "both streams" redirection; in dash it is `&` then `>`, so a bash plan
// would hand dash the job `sleep M &> /dev/null`, which dash would
// misread. Read as dash reads it, the command has no plan and runs
// unchanged, its sleep adopted at exit.
func TestCLIPromotionLanguage(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	for _, c := range []struct{ shell, origin string }{{"bash", "promoted"}, {"/bin/bash", "promoted"}, {"dash", "adopted"}, {"sh", "adopted"}} {
		m := marker(t)
		r := shexecJob(t, home, "--shell", c.shell, "-c", "sleep "+m+" &> /dev/null & echo x")
		if r.stdout != "x\n" || r.code != 0 {
			t.Fatalf("--shell %s: got %q, exit %d, stderr %q", c.shell, r.stdout, r.code, r.stderr)
		}
		if j := findJob(t, home, "sleep "+m); j.Origin != c.origin {
			t.Errorf("--shell %s: job %+v, want origin %s", c.shell, j, c.origin)
		}
	}
}

// TestCLIPromotionOnly: a command that is only a background statement runs
// nothing in the foreground and exits 0, like bash; with --json the job is
// in "jobs" and stderr stays quiet.
func TestCLIPromotionOnly(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "--json", "-c", "sleep "+m+" &")
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	j := findJob(t, home, "sleep "+m)
	if r.code != 0 || res.Status != "exited" || res.ExitCode != 0 || len(res.Jobs) != 1 || res.Jobs[0] != j.ID || j.Origin != "promoted" {
		t.Errorf("exit %d, json %+v, job %+v", r.code, res, j)
	}
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
