//go:build linux

package exec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// newTestStore gives each test its own store and, at cleanup, kills
// whatever its jobs left running (only those: Kill finds a job's processes
// by its record).
func newTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		jobs, _ := s.List("")
		for _, j := range jobs {
			if j.BootID == bootID() {
				s.Kill(context.Background(), j.ID, 100*time.Millisecond)
			}
		}
	})
	return s
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func startJob(t *testing.T, s *Store, spec JobSpec) *Job {
	t.Helper()
	j, err := s.Start(ctxT(t, 10*time.Second), spec)
	if err != nil {
		t.Fatalf("Start(%q): %v", spec.Command, err)
	}
	if j.Status != JobRunning && !j.Finished() {
		t.Fatalf("fresh job has status %q", j.Status)
	}
	return j
}

func waitJob(t *testing.T, s *Store, id string) *Job {
	t.Helper()
	j, err := s.Wait(ctxT(t, 10*time.Second), id)
	if err != nil {
		t.Fatalf("Wait(%s): %v", id, err)
	}
	return j
}

func logText(t *testing.T, s *Store, id string, stderr bool) string {
	t.Helper()
	pg, err := s.ReadLogs(id, stderr, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(pg.Lines, "\n")
}

// eventually polls cond for up to 5s: process death is asynchronous.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting until %s", what)
}

func TestJobExitCodeAndLogs(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: `echo "out $0 $1"; echo err >&2; exit 3`, Args: []string{"name", "arg1"}, Session: "s1"})
	if len(j.ID) != 8 || j.PID <= 0 || j.PGID != j.PID || j.StartTime == 0 || j.BootID == "" {
		t.Fatalf("incomplete record: %+v", j.JobMeta)
	}
	j = waitJob(t, s, j.ID)
	if j.Status != JobExited || j.ExitCode == nil || *j.ExitCode != 3 || j.WaitCode() != 3 {
		t.Fatalf("got status %s code %v, want exited 3", j.Status, j.ExitCode)
	}
	if got := logText(t, s, j.ID, false); got != "out name arg1" {
		t.Errorf("stdout log = %q", got)
	}
	if got := logText(t, s, j.ID, true); got != "err" {
		t.Errorf("stderr log = %q", got)
	}
}

func TestJobEnvAndCwd(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	dir := t.TempDir()
	j := startJob(t, s, JobSpec{Command: `pwd; echo "$FOO $` + JobIDEnv + `"`, Dir: dir, Env: []string{"FOO=bar", "PATH=" + os.Getenv("PATH")}})
	j = waitJob(t, s, j.ID)
	if got, want := logText(t, s, j.ID, false), dir+"\nbar "+j.ID; got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
}

func TestJobKilledFromOutsideRecordsSignal(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "sleep 201"})
	if err := unix.Kill(j.PID, unix.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	j = waitJob(t, s, j.ID)
	if j.Status != JobKilled || j.Signal != "SIGUSR1" || j.ExitCode == nil || *j.ExitCode != 128+int(unix.SIGUSR1) {
		t.Fatalf("got %s %q %v, want killed SIGUSR1", j.Status, j.Signal, j.ExitCode)
	}
}

// TestKillWholeTree: escapees that left the group (setsid) or the tree
// (double fork) are still reaped children of the supervisor and die with
// the job.
func TestKillWholeTree(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "setsid sleep 202 & (sleep 203 &); trap '' TERM; sleep 204"})
	var procs []ProcRef
	eventually(t, "the job has started its 3 processes (bash execs the last sleep)", func() bool {
		procs = s.jobProcs(j)
		return len(procs) >= 3
	})
	start := time.Now()
	j, err := s.Kill(ctxT(t, 10*time.Second), j.ID, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// The kill ends after the 0.3 s grace; the bound only tells it from
	// a kill that does not end (the context's 10 s): 3 s, which a machine
	// at load 40 took 4.7 s for, is 8 s.
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("kill took %v", el)
	}
	for _, r := range procs {
		if refAlive(r) {
			t.Errorf("pid %d survived kill", r.PID)
		}
	}
	if j.Status != JobKilled {
		t.Errorf("status after kill = %s, want killed", j.Status)
	}
}

func TestJobTimeout(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "trap '' TERM; setsid sleep 205 & sleep 206", Timeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond})
	var procs []ProcRef
	eventually(t, "processes started", func() bool { procs = s.jobProcs(j); return len(procs) >= 3 })
	j = waitJob(t, s, j.ID)
	if j.Status != JobTimedOut || j.WaitCode() != 124 {
		t.Fatalf("status %s, wait code %d; want timeout, 124", j.Status, j.WaitCode())
	}
	for _, r := range procs {
		if refAlive(r) {
			t.Errorf("pid %d survived the timeout", r.PID)
		}
	}
}

func TestJobStdinPipe(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: `read x; echo got:$x; cat`, Stdin: JobStdinPipe})
	if err := s.Write(j.ID, []byte("hello\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(j.ID, []byte("more"), true); err != nil {
		t.Fatal(err)
	}
	j = waitJob(t, s, j.ID)
	if j.Status != JobExited || *j.ExitCode != 0 {
		t.Fatalf("status %s %v", j.Status, j.ExitCode)
	}
	if got := logText(t, s, j.ID, false); got != "got:hello\nmore" {
		t.Errorf("log = %q", got)
	}
	if err := s.Write(j.ID, []byte("late"), false); err == nil {
		t.Error("Write to a finished job succeeded")
	}
	k := startJob(t, s, JobSpec{Command: "sleep 207"})
	if err := s.Write(k.ID, []byte("x"), false); err == nil {
		t.Error("Write to a job without a stdin pipe succeeded")
	}
}

// TestLostSupervisor: once the supervisor is SIGKILLed the job is lost, but
// its processes, including a setsid escapee, are still found and killed.
func TestLostSupervisor(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "setsid sleep 208 & sleep 209"})
	var procs []ProcRef
	eventually(t, "processes started", func() bool { procs = s.jobProcs(j); return len(procs) >= 2 })
	if err := unix.Kill(j.Supervisor.PID, unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "job reported lost", func() bool {
		jj, err := s.Load(j.ID)
		return err == nil && jj.Status == JobLost
	})
	if !refAlive(procs[0]) {
		t.Fatal("job processes died with the supervisor")
	}
	if err := s.Remove(j.ID); !errors.Is(err, ErrJobBusy) {
		t.Errorf("Remove of a lost job with live processes: %v, want ErrJobBusy", err)
	}
	if _, err := s.Kill(ctxT(t, 10*time.Second), j.ID, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for _, r := range procs {
		eventually(t, fmt.Sprintf("pid %d gone", r.PID), func() bool { return !refAlive(r) })
	}
	if err := s.Remove(j.ID); err != nil {
		t.Errorf("Remove after kill: %v", err)
	}
}

// TestBootIDChange: after a (simulated) reboot recorded pids may name other
// processes, so the job is lost and nothing is signalled.
func TestBootIDChange(t *testing.T) {
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "sleep 210"})
	main := ProcRef{PID: j.PID, Start: j.StartTime}

	fake := filepath.Join(t.TempDir(), "boot_id")
	if err := os.WriteFile(fake, []byte("00000000-0000-0000-0000-000000000000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := bootIDPath
	bootIDPath = fake
	jj, err := s.Load(j.ID)
	if err != nil {
		bootIDPath = old
		t.Fatal(err)
	}
	_, kerr := s.Kill(ctxT(t, 5*time.Second), j.ID, 100*time.Millisecond)
	procs := s.jobProcs(jj)
	bootIDPath = old

	if jj.Status != JobLost {
		t.Errorf("status after boot id change = %s, want lost", jj.Status)
	}
	if !errors.Is(kerr, ErrOtherBoot) {
		t.Errorf("Kill after boot id change: %v, want ErrOtherBoot", kerr)
	}
	if len(procs) != 0 {
		t.Errorf("jobProcs after boot id change = %v, want none", procs)
	}
	if !refAlive(main) {
		t.Error("the job's process was signalled after a boot id change")
	}
	if jj, _ := s.Load(j.ID); jj.Status != JobRunning {
		t.Errorf("with the real boot id back, status = %s", jj.Status)
	}
}

func TestAdopt(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command("bash", "-c", "echo early; sleep 0.3; echo late; exec sleep 211")
	cmd.Stdout = w
	cmd.SysProcAttr = &unix.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// We are its parent: reap it, so that once killed it does not linger as
	// a zombie that still looks like a process.
	reaped := make(chan struct{})
	go func() { cmd.Wait(); close(reaped) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-reaped })
	j, err := s.Adopt(ctxT(t, 5*time.Second), AdoptSpec{Command: "leftover", Session: "a", PIDs: []int{cmd.Process.Pid}, Stdout: r})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != JobRunning || j.PID != cmd.Process.Pid || len(j.Adopted) != 1 {
		t.Fatalf("adopted job: %+v", j)
	}
	eventually(t, "late output in the log", func() bool { return logText(t, s, j.ID, false) == "early\nlate" })
	if jobs, _ := s.List("a"); len(jobs) != 1 || jobs[0].ID != j.ID {
		t.Errorf("List(a) = %v", jobs)
	}
	j, err = s.Kill(ctxT(t, 5*time.Second), j.ID, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// Stopped by the kill: its record says so and names the signal, though
	// the kernel never told anyone an exit status.
	if j.Status != JobKilled || j.Signal != "SIGTERM" || j.ExitCode != nil || j.WaitCode() != 128+int(unix.SIGTERM) {
		t.Errorf("adopted job after kill: %s %q %v", j.Status, j.Signal, j.ExitCode)
	}
}

// TestStoppedJobRecordsSignal: a job whose shell exited by itself (0) but
// whose work went on (setsid) is recorded as stopped, with the signal, when
// `shexec kill` or its timeout ends that work; a job that ends by itself
// is not.
func TestStoppedJobRecordsSignal(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	for _, c := range []struct {
		name string
		spec JobSpec
		kill bool
		how  JobState
		sig  string
		note string
	}{
		{"kill", JobSpec{Command: "setsid sleep 212 & exit 0"}, true, JobKilled, "SIGTERM", "stopped by shexec kill"},
		{"kill forced", JobSpec{Command: "setsid bash -c 'trap \"\" TERM; sleep 213' & exit 0"}, true, JobKilled, "SIGKILL", "stopped by shexec kill"},
		{"timeout", JobSpec{Command: "setsid sleep 214 & exit 0", Timeout: 300 * time.Millisecond}, false, JobTimedOut, "SIGTERM", "timed out after 300ms"},
		{"own end", JobSpec{Command: "setsid sleep 0.2 & exit 0"}, false, JobExited, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			j := startJob(t, s, c.spec)
			if c.kill {
				time.Sleep(200 * time.Millisecond) // the shell has exited 0 by then
				var err error
				if j, err = s.Kill(ctxT(t, 10*time.Second), j.ID, 300*time.Millisecond); err != nil {
					t.Fatal(err)
				}
			} else {
				j = waitJob(t, s, j.ID)
			}
			if j.Status != c.how || j.Signal != c.sig || j.Note != c.note || j.ExitCode == nil || *j.ExitCode != 0 {
				t.Errorf("got %s %q %q exit %v; want %s %q %q exit 0", j.Status, j.Signal, j.Note, j.ExitCode, c.how, c.sig, c.note)
			}
		})
	}
}

func TestListSessionsClearRemove(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	a := startJob(t, s, JobSpec{Command: "true", Session: "a"})
	b := startJob(t, s, JobSpec{Command: "sleep 212", Session: "a"})
	c := startJob(t, s, JobSpec{Command: "true", Session: "c"})
	waitJob(t, s, a.ID)
	waitJob(t, s, c.ID)
	ids := func(session string) []string {
		jobs, err := s.List(session)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, j := range jobs {
			out = append(out, j.ID)
		}
		return out
	}
	if got := ids("a"); len(got) != 2 {
		t.Errorf("List(a) = %v", got)
	}
	if got := ids(""); len(got) != 3 {
		t.Errorf("List() = %v", got)
	}
	removed, err := s.Clear("a")
	if err != nil || len(removed) != 1 || removed[0] != a.ID {
		t.Errorf("Clear(a) = %v, %v; want [%s]", removed, err, a.ID)
	}
	if err := s.Remove(b.ID); !errors.Is(err, ErrJobBusy) {
		t.Errorf("Remove(running) = %v", err)
	}
	if err := s.Remove(c.ID); err != nil {
		t.Error(err)
	}
	if _, err := s.Load(c.ID); !errors.Is(err, ErrNoJob) {
		t.Errorf("Load after Remove: %v", err)
	}
	if _, err := s.Load("../etc"); !errors.Is(err, ErrNoJob) {
		t.Errorf("Load(../etc): %v", err)
	}
}

// TestConcurrentStartAndList: 100 starts racing with listings lose no
// record, and every record on disk is complete JSON.
func TestConcurrentStartAndList(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	const n = 100
	var wg sync.WaitGroup
	ids := make(chan string, n)
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := s.Start(context.Background(), JobSpec{Command: fmt.Sprintf("echo %d", i), Session: "many"})
			if err != nil {
				errs <- err
				return
			}
			ids <- j.ID
			if _, err := s.List("many"); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(ids)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	want := map[string]bool{}
	for id := range ids {
		want[id] = true
	}
	if len(want) != n {
		t.Fatalf("%d distinct ids from %d starts", len(want), n)
	}
	for id := range want {
		j := waitJob(t, s, id)
		if j.Status != JobExited {
			t.Errorf("job %s: %s", id, j.Status)
		}
	}
	jobs, err := s.List("many")
	if err != nil || len(jobs) != n {
		t.Fatalf("List: %d jobs, %v", len(jobs), err)
	}
	checkPrivate(t, s.Dir)
}

// checkPrivate fails if anything under dir is accessible to group or
// others.
func checkPrivate(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Error(err)
			return nil
		}
		fi, err := d.Info()
		if err == nil && fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v", p, fi.Mode().Perm())
		}
		return nil
	})
}

// TestPrivateWhileRunning runs with umask 0 (and so not in parallel, as the
// umask is per process): modes must come from shexec, not from the umask.
func TestPrivateWhileRunning(t *testing.T) {
	s := newTestStore(t)
	old := unix.Umask(0)
	defer unix.Umask(old)
	j := startJob(t, s, JobSpec{Command: "echo x; sleep 213", Stdin: JobStdinPipe})
	checkPrivate(t, s.Dir)
	s.Kill(ctxT(t, 5*time.Second), j.ID, 100*time.Millisecond)
}

func TestReadLogsPaging(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	j := startJob(t, s, JobSpec{Command: "seq 1 500"})
	waitJob(t, s, j.ID)
	pg, err := s.ReadLogs(j.ID, false, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pg.Total != 500 || pg.Offset != 300 || len(pg.Lines) != 200 || pg.Lines[0] != "301" || pg.Lines[199] != "500" {
		t.Errorf("tail page: total %d offset %d len %d", pg.Total, pg.Offset, len(pg.Lines))
	}
	if !strings.Contains(pg.Hint, "--offset 100 --limit 200") {
		t.Errorf("hint %q", pg.Hint)
	}
	pg, _ = s.ReadLogs(j.ID, false, 10, 3)
	if strings.Join(pg.Lines, ",") != "11,12,13" || !strings.Contains(pg.Hint, "--offset 13") {
		t.Errorf("page at 10: %v %q", pg.Lines, pg.Hint)
	}
}

func TestLogRotation(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "stdout.log")
	l, err := openRotatingLog(p, 4096)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		fmt.Fprintf(l, "line %04d\n", i)
	}
	l.Close()
	cur, _ := os.ReadFile(p)
	old, _ := os.ReadFile(p + ".1")
	if len(cur)+len(old) > 4096+200 {
		t.Errorf("logs use %d bytes, cap 4096", len(cur)+len(old))
	}
	if !strings.HasPrefix(string(cur), "[shexec: log rotated") || !strings.HasSuffix(string(cur), "line 0999\n") {
		t.Errorf("current part: %q...", cur[:60])
	}
	if !strings.HasPrefix(string(old), "[shexec: log rotated") {
		t.Errorf("old part does not start with the marker: %q", old[:40])
	}
}

// TestAdoptTrackerIdleThenPromptEnd: the tracker of an adopted job slows its
// /proc scans down while nothing happens, but still records the end at once
// when the process exits (it waits on a pidfd, not for its next scan).
func TestAdoptTrackerIdleThenPromptEnd(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	cmd := osexec.Command("sleep", "212")
	cmd.SysProcAttr = &unix.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { cmd.Wait(); close(reaped) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-reaped })
	j, err := s.Adopt(ctxT(t, 5*time.Second), AdoptSpec{Command: "sleep 212", PIDs: []int{cmd.Process.Pid}})
	if err != nil {
		t.Fatal(err)
	}
	before := cpuTicks(t, j.Supervisor.PID)
	// Long enough for the scan interval to reach its slow bound.
	time.Sleep(3 * adoptScanSlow)
	idle := cpuTicks(t, j.Supervisor.PID) - before
	cmd.Process.Kill()
	<-reaped
	start := time.Now()
	j = waitJob(t, s, j.ID)
	// A scan at the slow bound would take up to adoptScanSlow; the margin
	// below it is for a loaded machine.
	if d := time.Since(start); d > adoptScanSlow*3/4 {
		t.Errorf("the end of the adopted process was recorded %v after it exited", d)
	}
	if j.Status != JobExited {
		t.Errorf("status %s", j.Status)
	}
	t.Logf("tracker CPU while idle for %v: %d ticks", 3*adoptScanSlow, idle)
}

// cpuTicks is the user+system CPU time of pid, in clock ticks.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	var u, s int
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &s)
	return u + s
}
