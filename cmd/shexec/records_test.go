//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jobRecord is what `shexec status --json` says of a job.
type jobRecord struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	Cwd      string `json:"cwd"`
	Status   string `json:"status"`
	Signal   string `json:"signal"`
	ExitCode *int   `json:"exit_code"`
}

func jobStatus(t *testing.T, home, id string) jobRecord {
	t.Helper()
	r := shexecJob(t, home, "status", "--json", id)
	var j jobRecord
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("status --json %s: %v: %q %q", id, err, r.stdout, r.stderr)
	}
	return j
}

// TestAdoptedRecord: an adopted job is named after the statement that
// started it, not the resolved command line of its processes, and has the
// directory it runs in; `shexec kill` records the signal.
func TestAdoptedRecord(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	stmt := "cd " + dir + " && exec env sleep " + m
	r := shexecJob(t, home, "--promote=false", "-c", stmt+" & echo x")
	if r.stdout != "x\n" || r.code != 0 {
		t.Fatalf("got %q exit %d stderr %q", r.stdout, r.code, r.stderr)
	}
	j := findJob(t, home, m)
	if j.Command != stmt {
		t.Errorf("command %q, want the statement %q", j.Command, stmt)
	}
	if rec := jobStatus(t, home, j.ID); rec.Cwd != dir {
		t.Errorf("cwd %q, want %q", rec.Cwd, dir)
	}
	if k := shexecJob(t, home, "kill", "--grace", "0.5", j.ID); k.code != 0 {
		t.Fatalf("kill: %d %s", k.code, k.stderr)
	}
	if rec := jobStatus(t, home, j.ID); rec.Status != "killed" || rec.Signal != "SIGTERM" {
		t.Errorf("after kill: %+v", rec)
	}
	if w := shexecJob(t, home, "wait", j.ID); w.code != 143 {
		t.Errorf("wait after kill: exit %d", w.code)
	}
	assertNoSurvivors(t, m)
}

// TestStoppedSetsidJobRecord: a job whose shell exited 0 but whose setsid
// server went on reads "killed (SIGTERM)" after `shexec kill`, not "exited
// (exit 0)".
func TestStoppedSetsidJobRecord(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "--background", "-c", "setsid sleep "+m+" & exit 0")
	id := strings.TrimSpace(r.stdout)
	time.Sleep(200 * time.Millisecond)
	shexecJob(t, home, "kill", "--grace", "0.5", id)
	if rec := jobStatus(t, home, id); rec.Status != "killed" || rec.Signal != "SIGTERM" {
		t.Errorf("after kill: %+v", rec)
	}
	if l := shexecJob(t, home, "jobs"); !strings.Contains(l.stdout, "killed (SIGTERM)") {
		t.Errorf("jobs: %q", l.stdout)
	}
	assertNoSurvivors(t, m)
}

// TestKeepJobs: finished records beyond --keep-jobs (or $SHEXEC_KEEP_JOBS)
// go when the next job is created.
func TestKeepJobs(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	// Each job ends before the next starts, so the end times (by which
	// records are kept) are in start order: three jobs running at once
	// may end in any order on a loaded machine.
	var ids []string
	for range 3 {
		r := shexecJob(t, home, "--background", "-c", "true")
		id := strings.TrimSpace(r.stdout)
		shexecJob(t, home, "wait", id)
		ids = append(ids, id)
		time.Sleep(10 * time.Millisecond) // distinct end times
	}
	r := shexecJob(t, home, "--keep-jobs", "2", "--background", "-c", "true")
	last := strings.TrimSpace(r.stdout)
	shexecJob(t, home, "wait", last)
	got := map[string]bool{}
	for _, j := range listJobs(t, home) {
		got[j.ID] = true
	}
	if len(got) != 3 || got[ids[0]] || !got[ids[1]] || !got[ids[2]] || !got[last] {
		t.Errorf("after --keep-jobs 2: %v, started %v then %s", got, ids, last)
	}
	r = shexecEnv(t, home, []string{"SHEXEC_KEEP_JOBS=1"}, "--background", "-c", "true")
	shexecJob(t, home, "wait", strings.TrimSpace(r.stdout))
	if jobs := listJobs(t, home); len(jobs) != 2 || jobs[0].ID != last {
		t.Errorf("after SHEXEC_KEEP_JOBS=1: %+v", jobs)
	}
	if _, err := os.Stat(filepath.Join(home, ids[1])); !os.IsNotExist(err) {
		t.Errorf("record %s still on disk: %v", ids[1], err)
	}
}
