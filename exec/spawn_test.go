//go:build linux

package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The Spawner's tests are not parallel: while a Spawner is open it reaps
// every child of the test binary, and the parallel job tests wait for
// children of their own (they resume only once the sequential tests are
// done, and the Spawners are closed by then).

// newTestSpawner is a Spawner on a fresh store; at cleanup it stops what is
// in the foreground, then the jobs, then closes.
func newTestSpawner(t *testing.T) (*Spawner, *Store) {
	t.Helper()
	s := newTestStore(t)
	sp, err := NewSpawner(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sp.StopActive()
		for _, id := range sp.Jobs() {
			s.Kill(context.Background(), id, 100*time.Millisecond)
		}
		sp.Close()
	})
	return sp, s
}

// syncBuf is an Output for tests: Wait has returned before it is read, but
// the race detector does not know that.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func spawn(t *testing.T, sp *Spawner, spec SpawnSpec, yield time.Duration) (*ProcResult, *syncBuf) {
	t.Helper()
	out := &syncBuf{}
	spec.Output = out
	p, err := sp.Start(spec)
	if err != nil {
		t.Fatalf("Start(%q): %v", spec.Command, err)
	}
	res, err := p.Wait(ctxT(t, 30*time.Second), yield)
	if err != nil {
		t.Fatalf("Wait(%q): %v", spec.Command, err)
	}
	return res, out
}

// A quick command runs in the caller's process and leaves nothing on disk.
func TestSpawnQuickLeavesNoRecord(t *testing.T) {
	sp, s := newTestSpawner(t)
	res, out := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: `echo "out $0 $1"; echo err >&2; exit 3`, Args: []string{"name", "arg1"}}}, 10*time.Second)
	if res.Status != JobExited || res.ExitCode != 3 || res.Job != nil {
		t.Fatalf("got %+v", res)
	}
	if got := out.String(); !strings.Contains(got, "out name arg1\n") || !strings.Contains(got, "err\n") {
		t.Errorf("output %q", got)
	}
	if ents, _ := os.ReadDir(s.Dir); len(ents) != 0 {
		t.Errorf("store holds %d entries after a quick command", len(ents))
	}
	res, _ = spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "kill -USR1 $$"}}, 10*time.Second)
	if res.Status != JobKilled || res.Signal != "SIGUSR1" || res.ExitCode != 128+int(unix.SIGUSR1) {
		t.Errorf("shell killed by a signal: %+v", res)
	}
	// Short background work is waited out, as its caller would.
	res, out = spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "sleep 0.1 & echo hi"}}, 10*time.Second)
	if res.Status != JobExited || res.Job != nil || out.String() != "hi\n" {
		t.Errorf("brief background work: %+v %q", res, out.String())
	}
}

// Commands run concurrently, each with its own output and status.
func TestSpawnConcurrent(t *testing.T) {
	sp, _ := newTestSpawner(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, out := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: fmt.Sprintf("sleep 0.%d; echo %d; exit %d", i, i, i)}}, 10*time.Second)
			if res.Status != JobExited || res.ExitCode != i || out.String() != fmt.Sprintf("%d\n", i) {
				t.Errorf("command %d: %+v %q", i, res, out.String())
			}
		}()
	}
	wg.Wait()
}

// The yield hands the running command over to a job: what it wrote before
// (more than the memory spool, so partly spilled to disk) and after ends
// up in the job's logs, in order per stream, and the shell's exit status,
// reaped by the caller, is the job's.
func TestSpawnHandoverLogsAndExitStatus(t *testing.T) {
	sp, s := newTestSpawner(t)
	// The yield leaves the shell time to start and seq to print even on a
	// loaded machine (CI runs three test binaries on two cores); "after"
	// comes a second later than it.
	cmd := `seq 1 150000; echo e1 >&2; sleep 3; echo after; echo e2 >&2; exit 7`
	res, out := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: cmd, Session: "h"}}, 2*time.Second)
	if res.Status != JobRunning || res.Job == nil || res.ShellExited {
		t.Fatalf("got %+v", res)
	}
	if !strings.HasPrefix(out.String(), "1\n2\n") || strings.Contains(out.String(), "after") {
		t.Errorf("output before the yield: %q...", out.String()[:min(20, len(out.String()))])
	}
	j := res.Job
	if j.Origin != OriginStarted || !j.Marked || j.ExitReporter.PID != os.Getpid() || j.Session != "h" {
		t.Errorf("job record %+v", j.JobMeta)
	}
	j = waitJob(t, s, j.ID)
	if j.Status != JobExited || j.ExitCode == nil || *j.ExitCode != 7 {
		t.Fatalf("job ended %s %v %q, want exited 7", j.Status, j.ExitCode, j.Note)
	}
	pg, err := s.ReadLogs(j.ID, false, 0, 200000)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg.Lines) != 150001 || pg.Lines[0] != "1" || pg.Lines[149999] != "150000" || pg.Lines[150000] != "after" {
		t.Errorf("stdout log: %d lines, last %q", len(pg.Lines), pg.Lines[len(pg.Lines)-1])
	}
	for i, l := range pg.Lines[:150000] {
		if l != fmt.Sprint(i+1) {
			t.Fatalf("stdout line %d = %q", i, l)
		}
	}
	if got := logText(t, s, j.ID, true); got != "e1\ne2" {
		t.Errorf("stderr log %q", got)
	}
}

// A handed-over job is stopped as a whole, escapees included, by Store.Kill,
// and its record says so.
func TestSpawnHandoverKillStopsTree(t *testing.T) {
	sp, s := newTestSpawner(t)
	res, _ := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "setsid sleep 221 & (sleep 222 &); sleep 0.1; (setsid sleep 223 &); sleep 224"}}, 300*time.Millisecond)
	if res.Status != JobRunning {
		t.Fatalf("got %+v", res)
	}
	var procs []ProcRef
	eventually(t, "the job's 4 sleeps", func() bool {
		jj, _ := s.Load(res.Job.ID)
		procs = s.jobProcs(jj)
		return len(procs) >= 4
	})
	j, err := s.Kill(ctxT(t, 10*time.Second), res.Job.ID, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range procs {
		if refAlive(r) {
			t.Errorf("pid %d survived the kill", r.PID)
		}
	}
	if j.Status != JobKilled || j.Signal != "SIGTERM" || j.ExitCode == nil || *j.ExitCode != 128+int(unix.SIGTERM) {
		t.Errorf("after kill: %s %q %v %q", j.Status, j.Signal, j.ExitCode, j.Note)
	}
}

// What the shell leaves running becomes the job once the linger is over,
// with the leftovers listed. The leftover runs 3 s, well past the linger
// (250 ms): with 1 s, a machine at load 40 took that long to see the
// shell's exit and the linger out, and the leftover had ended.
func TestSpawnLeftoversBecomeJob(t *testing.T) {
	sp, s := newTestSpawner(t)
	res, out := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "echo hi; (sleep 3; echo late) & exit 4"}}, 30*time.Second)
	if res.Status != JobRunning || !res.ShellExited || out.String() != "hi\n" || res.Duration > 5*time.Second {
		t.Fatalf("got %+v %q", res, out.String())
	}
	if len(res.Leftovers) == 0 || res.Leftovers[0].Action != "kept" || res.Job.Origin != OriginAdopted {
		t.Errorf("leftovers %+v, origin %s", res.Leftovers, res.Job.Origin)
	}
	j := waitJob(t, s, res.Job.ID)
	if j.Status != JobExited || j.ExitCode == nil || *j.ExitCode != 4 {
		t.Errorf("job ended %s %v", j.Status, j.ExitCode)
	}
	if got := logText(t, s, j.ID, false); got != "hi\nlate" {
		t.Errorf("log %q", got)
	}
}

// A job's stdin stays writable across the hand-over: Input first, then
// Store.Write.
func TestSpawnInteractiveHandover(t *testing.T) {
	sp, s := newTestSpawner(t)
	// The yield at 2 s (was 0.6 s) leaves a busy machine time to start the
	// shell and answer the first line; the command waits for more anyway.
	res, out := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "read a; echo got $a; read b; echo got $b; cat", Stdin: JobStdinPipe}, Input: []byte("one\n")}, 2*time.Second)
	if res.Status != JobRunning || out.String() != "got one\n" {
		t.Fatalf("got %+v %q", res, out.String())
	}
	if err := s.Write(res.Job.ID, []byte("two\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(res.Job.ID, []byte("rest"), true); err != nil {
		t.Fatal(err)
	}
	j := waitJob(t, s, res.Job.ID)
	if j.Status != JobExited || j.ExitCode == nil || *j.ExitCode != 0 {
		t.Fatalf("job ended %s %v %q", j.Status, j.ExitCode, j.Note)
	}
	if got := logText(t, s, j.ID, false); got != "got one\ngot two\nrest" {
		t.Errorf("log %q", got)
	}
}

// The timeout counts from the start, in the foreground and after the
// hand-over alike, and stops the whole tree.
func TestSpawnTimeout(t *testing.T) {
	sp, s := newTestSpawner(t)
	start := time.Now()
	res, _ := spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "trap '' TERM; setsid sleep 225 & sleep 226", Timeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond}}, 10*time.Second)
	if res.Status != JobTimedOut || res.ExitCode != ExitTimeout || time.Since(start) > 5*time.Second {
		t.Fatalf("foreground timeout: %+v", res)
	}
	// The yield (0.2 s) must come well before the timeout (2 s; with
	// 0.7 s a busy machine could be that late), and the timeout counts
	// from the start, not from the hand-over.
	res, _ = spawn(t, sp, SpawnSpec{JobSpec: JobSpec{Command: "setsid sleep 227 & sleep 228", Timeout: 2 * time.Second}}, 200*time.Millisecond)
	if res.Status != JobRunning {
		t.Fatalf("got %+v", res)
	}
	j := waitJob(t, s, res.Job.ID)
	if j.Status != JobTimedOut || j.WaitCode() != 124 || j.Ended.Sub(j.Started) > 4*time.Second {
		t.Errorf("job after its timeout: %s %d", j.Status, j.WaitCode())
	}
	if procs := s.jobProcs(j); len(procs) != 0 {
		t.Errorf("left after the timeout: %v", procs)
	}
}

// A cancelled Wait stops the command; StopActive stops the commands in the
// foreground of other calls.
func TestSpawnCancelAndStopActive(t *testing.T) {
	sp, _ := newTestSpawner(t)
	p, err := sp.Start(SpawnSpec{JobSpec: JobSpec{Command: "setsid sleep 229 & sleep 230"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := p.Wait(ctx, 30*time.Second)
	if err != nil || res.Status != JobKilled || len(p.live()) != 0 {
		t.Fatalf("cancelled: %+v %v, left %v", res, err, p.live())
	}
	p, err = sp.Start(SpawnSpec{JobSpec: JobSpec{Command: "sleep 231"}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *ProcResult)
	go func() { r, _ := p.Wait(context.Background(), 30*time.Second); done <- r }()
	time.Sleep(100 * time.Millisecond)
	sp.StopActive()
	if r := <-done; r.Status != JobKilled || !strings.Contains(r.Note, "session ended") {
		t.Errorf("after StopActive: %+v", r)
	}
	if _, err := sp.Start(SpawnSpec{JobSpec: JobSpec{Command: "true"}}); err == nil {
		t.Error("Start after StopActive succeeded")
	}
}
