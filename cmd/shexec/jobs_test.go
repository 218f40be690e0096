//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as shexec: run with asMainEnv set, it is the
// command (and, re-executed by a job start, the job supervisor). init runs
// before the testing flags are parsed, so those invocations never see them.
const asMainEnv = "SHEXEC_TEST_AS_MAIN"

func init() {
	if os.Getenv(asMainEnv) == "1" {
		main()
	}
}

type shexecResult struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

// shexecJob runs the command with home as SHEXEC_HOME and stdin /dev/null.
func shexecJob(t *testing.T, home string, args ...string) shexecResult {
	t.Helper()
	return shexecIn(t, home, "", args...)
}

type jobJSON struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	Status   string `json:"status"`
	PID      int    `json:"pid"`
	ExitCode *int   `json:"exit_code"`
	Started  string `json:"started"`
	Origin   string `json:"origin"`
}

func listJobs(t *testing.T, home string) []jobJSON {
	t.Helper()
	r := shexecJob(t, home, "jobs", "--json")
	var jobs []jobJSON
	if err := json.Unmarshal([]byte(r.stdout), &jobs); err != nil {
		t.Fatalf("jobs --json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	return jobs
}

// newHome returns an empty SHEXEC_HOME whose jobs are killed at cleanup.
func newHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	t.Cleanup(func() {
		for _, j := range listJobs(t, home) {
			if j.Status == "running" || j.Status == "lost" {
				shexecJob(t, home, "kill", "--grace", "0.1", j.ID)
			}
		}
	})
	return home
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func findJob(t *testing.T, home, marker string) jobJSON {
	t.Helper()
	for _, j := range listJobs(t, home) {
		if strings.Contains(j.Command, marker) {
			return j
		}
	}
	t.Fatalf("no job with %q in %v", marker, listJobs(t, home))
	return jobJSON{}
}

func TestCLIBackgroundLeftoverIsAdoptedAndKillable(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	// Without promotion the sleep is forked by the shell and found at exit.
	m := marker(t)
	r := shexecJob(t, home, "--promote=false", "-c", "sleep "+m+" & echo hi")
	if r.stdout != "hi\n" || r.code != 0 {
		t.Fatalf("got %q, exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	if r.elapsed > time.Second {
		t.Errorf("took %v; the sleep must not hold shexec", r.elapsed)
	}
	j := findJob(t, home, "sleep "+m)
	if j.Status != "running" || !alive(j.PID) || j.Origin != "adopted" {
		t.Fatalf("job %+v, alive %v", j, alive(j.PID))
	}
	if k := shexecJob(t, home, "kill", "--grace", "0.2", j.ID); k.code != 0 {
		t.Fatalf("kill: %d %s", k.code, k.stderr)
	}
	deadline := time.Now().Add(3 * time.Second)
	for alive(j.PID) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(j.PID) {
		t.Errorf("sleep %s (pid %d) survived kill", m, j.PID)
	}
}

func TestCLIDoubleForkSetsidIsAdopted(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "-c", "(setsid sleep "+m+" &); echo x")
	if r.stdout != "x\n" || r.code != 0 || r.elapsed > time.Second {
		t.Fatalf("got %q, exit %d in %v, stderr %q", r.stdout, r.code, r.elapsed, r.stderr)
	}
	j := findJob(t, home, "sleep "+m)
	if j.Status != "running" || !alive(j.PID) {
		t.Fatalf("job %+v", j)
	}
}

func TestCLIYieldThenWaitAndLogs(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	// The command runs 4 s: a return within 3 s is the yield's, not the
	// command's end, with a second of margin each way on a busy machine
	// (with `sleep 2` and a bound of 1.8 s the margin was 0.2 s).
	r := shexecJob(t, home, "--yield", "1s", "-c", "echo before; sleep 4; echo done")
	if r.elapsed < 900*time.Millisecond || r.elapsed > 3*time.Second {
		t.Errorf("--yield 1s returned after %v", r.elapsed)
	}
	if r.stdout != "before\n" || r.code != exitRunning {
		t.Errorf("output so far %q, exit %d, want %d (still running)", r.stdout, r.code, exitRunning)
	}
	j := findJob(t, home, "sleep 4")
	if !strings.Contains(r.stderr, "job "+j.ID) {
		t.Errorf("stderr %q does not name job %s", r.stderr, j.ID)
	}
	if w := shexecJob(t, home, "wait", j.ID); w.code != 0 {
		t.Errorf("wait: exit %d %s", w.code, w.stderr)
	}
	if l := shexecJob(t, home, "logs", j.ID); l.stdout != "before\ndone\n" {
		t.Errorf("logs: %q", l.stdout)
	}
}

func TestCLIYieldJSONThenWrite(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	r := shexecJob(t, home, "--yield", "0.5s", "--json", "-c", "read x; echo got:$x")
	var res struct {
		Status   string `json:"status"`
		ExitCode int    `json:"exit_code"`
		JobID    string `json:"job_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Status != "running" || res.JobID == "" || res.ExitCode != exitRunning || r.code != exitRunning {
		t.Fatalf("--json yield output %q (%v), exit %d", r.stdout, err, r.code)
	}
	if w := shexecJob(t, home, "write", res.JobID, "hello", "--eof"); w.code != 0 {
		t.Fatalf("write: %d %s", w.code, w.stderr)
	}
	if w := shexecJob(t, home, "wait", "--timeout", "5s", res.JobID); w.code != 0 {
		t.Errorf("wait: exit %d %s", w.code, w.stderr)
	}
	if l := shexecJob(t, home, "logs", res.JobID); l.stdout != "got:hello\n" {
		t.Errorf("logs: %q", l.stdout)
	}
}

func TestCLIYieldFinishesInTime(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	r := shexecJob(t, home, "--yield", "5s", "-c", "echo out; echo err >&2; exit 7")
	if r.stdout != "out\n" || r.stderr != "err\n" || r.code != 7 {
		t.Errorf("got %q %q exit %d", r.stdout, r.stderr, r.code)
	}
	if jobs := listJobs(t, home); len(jobs) != 0 {
		t.Errorf("a run that ended before the yield left records: %v", jobs)
	}
}

func TestCLIJobCommands(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	r := shexecJob(t, home, "--background", "-c", "echo started; sleep "+marker(t))
	id := strings.TrimSpace(r.stdout)
	if r.code != 0 || len(id) != 8 {
		t.Fatalf("--background printed %q, exit %d, %s", r.stdout, r.code, r.stderr)
	}
	if s := shexecJob(t, home, "status", "--json", id); !strings.Contains(s.stdout, `"status":"running"`) {
		t.Errorf("status: %s", s.stdout)
	}
	if w := shexecJob(t, home, "wait", "--timeout", "0.2", id); w.code != 124 {
		t.Errorf("wait --timeout on a running job: exit %d", w.code)
	}
	if rm := shexecJob(t, home, "rm", id); rm.code == 0 {
		t.Error("rm of a running job succeeded")
	}
	shexecJob(t, home, "kill", "--grace", "0.2", id)
	if w := shexecJob(t, home, "wait", id); w.code != 128+15 {
		t.Errorf("wait after kill: exit %d, want 143", w.code)
	}
	if l := shexecJob(t, home, "logs", "--json", id); !strings.Contains(l.stdout, `"lines":["started"]`) {
		t.Errorf("logs --json: %s", l.stdout)
	}
	if c := shexecJob(t, home, "clear", "--json"); !strings.Contains(c.stdout, id) {
		t.Errorf("clear: %s", c.stdout)
	}
	if s := shexecJob(t, home, "status", id); s.code != 1 {
		t.Errorf("status after clear: exit %d", s.code)
	}
}

// TestCLIConcurrentStartsAndLists: 100 shexec processes starting jobs while
// others list them lose no record and never see a torn file. Not parallel:
// the load would distort the other tests' timing checks.
func TestCLIConcurrentStartsAndLists(t *testing.T) {
	home := newHome(t)
	const n = 100
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]bool{}
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r := shexecJob(t, home, "--background", "-c", fmt.Sprintf("echo %d", i))
			mu.Lock()
			ids[strings.TrimSpace(r.stdout)] = true
			mu.Unlock()
			if r.code != 0 {
				t.Errorf("start %d: exit %d %s", i, r.code, r.stderr)
			}
		}()
		go func() {
			defer wg.Done()
			listJobs(t, home) // fails the test on unparseable output
		}()
	}
	wg.Wait()
	if len(ids) != n {
		t.Fatalf("%d distinct ids from %d starts", len(ids), n)
	}
	jobs := listJobs(t, home)
	if len(jobs) != n {
		t.Fatalf("listed %d jobs, want %d", len(jobs), n)
	}
	for _, j := range jobs {
		if !ids[j.ID] {
			t.Errorf("unknown job %s", j.ID)
		}
	}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if fi, err := d.Info(); err == nil && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v", p, fi.Mode().Perm())
		}
		return nil
	})
}
