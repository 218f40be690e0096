//go:build linux

package main

// Tests of the exec library itself, run in this process. They live here
// rather than in package exec because Run makes the calling process a child
// subreaper and reaps every child that exits while it runs: in exec's own
// test binary that would meddle with the managed-job tests, which start and
// wait for supervisor processes concurrently. None of these tests is
// parallel, so each Run has the process to itself (the parallel CLI tests
// start only after all of them have finished).

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shguard/shguard/exec"
)

func TestRunPrepareHook(t *testing.T) {
	var out bytes.Buffer
	upper := func(s string) (string, error) { return strings.ReplaceAll(s, "@GREETING@", "echo prepared"), nil }
	res, err := exec.Run(context.Background(), "@GREETING@; echo $0 $1", exec.WithPrepare(upper), exec.WithArgs("me", "arg"), exec.WithStdout(&out))
	if err != nil || res.ExitCode != 0 || out.String() != "prepared\nme arg\n" {
		t.Fatalf("Run = %+v, %v; stdout %q", res, err, out.String())
	}

	flag := filepath.Join(t.TempDir(), "ran")
	boom := errors.New("cannot plan")
	_, err = exec.Run(context.Background(), "touch "+flag, exec.WithPrepare(func(string) (string, error) { return "", boom }))
	var se *exec.StartError
	if !errors.As(err, &se) || !errors.Is(err, boom) || se.ExitCode() != 125 {
		t.Errorf("prepare error: %v", err)
	}
	if _, err := os.Stat(flag); err == nil {
		t.Error("the script ran although prepare failed")
	}
}

// TestRunShellFlagsAndArgs: WithShellFlags puts the shell's options before
// the script; WithShellArgs runs the shell with exactly the given words.
func TestRunShellFlagsAndArgs(t *testing.T) {
	var out bytes.Buffer
	res, err := exec.Run(context.Background(), `echo "$-" "$0" "$1"; false | true; echo unreached`,
		exec.WithShellFlags("-eu", "-o", "pipefail", "-c"), exec.WithArgs("name", "one"), exec.WithStdout(&out))
	if err != nil || res.ExitCode != 1 || out.String() != "ehuBc name one\n" {
		t.Errorf("WithShellFlags: %+v, %v, stdout %q", res, err, out.String())
	}

	file := filepath.Join(t.TempDir(), "s.sh")
	os.WriteFile(file, []byte(`echo "${0##*/} $*"; exit 4`), 0o644)
	out.Reset()
	res, err = exec.Run(context.Background(), "", exec.WithShellArgs("-e", file, "a", "b"), exec.WithStdout(&out))
	if err != nil || res.ExitCode != 4 || out.String() != "s.sh a b\n" {
		t.Errorf("WithShellArgs (file): %+v, %v, stdout %q", res, err, out.String())
	}
	out.Reset()
	res, err = exec.Run(context.Background(), "", exec.WithShellArgs("-s", "x"), exec.WithStdin(strings.NewReader(`echo "stdin $1"`)), exec.WithStdout(&out))
	if err != nil || res.ExitCode != 0 || out.String() != "stdin x\n" {
		t.Errorf("WithShellArgs (stdin): %+v, %v, stdout %q", res, err, out.String())
	}
	if _, err := exec.Run(context.Background(), "echo both", exec.WithShellArgs("-c", "true")); err == nil {
		t.Error("a script with WithShellArgs was accepted")
	}
}

// TestRunWriters: any io.Writer works, and one writer for both streams gets
// them in the order the shell wrote them.
func TestRunWriters(t *testing.T) {
	var both bytes.Buffer
	res, err := exec.Run(context.Background(), "for i in 1 2 3; do echo o$i; echo e$i >&2; done; exit 2",
		exec.WithStdout(&both), exec.WithStderr(&both), exec.WithStdin(strings.NewReader("unused")))
	if err != nil || res.Status != exec.StatusExited || res.ExitCode != 2 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if want := "o1\ne1\no2\ne2\no3\ne3\n"; both.String() != want {
		t.Errorf("got %q, want %q", both.String(), want)
	}

	var out bytes.Buffer
	in := strings.Repeat("stdin from a plain reader\n", 10000)
	if _, err := exec.Run(context.Background(), "cat", exec.WithStdin(strings.NewReader(in)), exec.WithStdout(&out)); err != nil || out.String() != in {
		t.Errorf("stdin through a reader: %v, %d bytes", err, out.Len())
	}
}

// recordingPolicy shows what a policy such as "adopt" can do through the
// LeftoverSet: see the leftovers, read what they keep writing through the
// duplicated pipe, then stop them.
type recordingPolicy struct {
	seen []exec.Leftover
	late string
}

func (*recordingPolicy) Name() string { return "record" }
func (p *recordingPolicy) Handle(_ context.Context, set *exec.LeftoverSet) error {
	stdout, _ := set.OutputPipes()
	if stdout == nil {
		return errors.New("no stdout pipe")
	}
	defer stdout.Close()
	unix.SetNonblock(int(stdout.Fd()), false)
	buf := make([]byte, 64)
	n, _ := stdout.Read(buf)
	p.late = string(buf[:n])
	for _, l := range set.Procs {
		p.seen = append(p.seen, *l)
	}
	set.Terminate()
	return nil
}

func TestRunCustomLeftoverPolicy(t *testing.T) {
	m := marker(t)
	var out bytes.Buffer
	p := &recordingPolicy{}
	// The shell exits only once the subshell has forked its sleep (the
	// ready file is made after the fork), so the policy finds both
	// whatever the machine's load; the sleep's 3 s only has to outlast
	// the shell's exit and the scan, not race a bound.
	ready := filepath.Join(t.TempDir(), "ready")
	script := "(sleep 3 & : >" + ready + "; wait; echo late; exec sleep " + m + ") & until [ -e " + ready + " ]; do :; done; echo early"
	res, err := exec.Run(context.Background(), script,
		exec.WithStdout(&out), exec.WithLeftovers(p), exec.WithGrace(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "early\n" || p.late != "late\n" {
		t.Errorf("stdout %q, read by the policy %q", out.String(), p.late)
	}
	// The backgrounded subshell and its `sleep 3`, both holding stdout.
	holds := func(l exec.Leftover) bool { return l.HoldsOutput }
	if portableBuild {
		t.Log("portable: HoldsOutput not checked (no holder scan, as on macOS)")
		holds = func(exec.Leftover) bool { return true }
	}
	if len(p.seen) != 2 || !holds(p.seen[0]) || !holds(p.seen[1]) || !p.seen[0].Descendant {
		t.Errorf("policy saw %+v", p.seen)
	}
	// By the time the policy stops them, the sleep has exited and the
	// subshell has become `sleep M`.
	actions := map[string]int{}
	for _, l := range res.Leftovers {
		actions[l.Action]++
	}
	if len(res.Leftovers) != 2 || actions["terminated"] != 1 || actions["exited"] != 1 {
		t.Errorf("result leftovers %+v", res.Leftovers)
	}
	assertNoSurvivors(t, m)
}

// TestRunReapsEverything: after Run, no zombie and no process is left as a
// child of the caller, whatever the command did.
func TestRunReapsEverything(t *testing.T) {
	m := marker(t)
	script := `perl -e '$SIG{TERM}="IGNORE"; for (1..3) { exit 0 unless fork } sleep ` + m + `' &
(sleep 0.05 &) ; setsid sleep ` + m + ` & sleep 0.1`
	res, err := exec.Run(context.Background(), script, exec.WithGrace(200*time.Millisecond))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil); err != unix.ECHILD {
		t.Errorf("the test process still has children (err %v)", err)
	}
	assertNoSurvivors(t, m)
}

func TestRunContextCancel(t *testing.T) {
	m := marker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	res, err := exec.Run(ctx, "setsid sleep "+m+" & sleep "+m, exec.WithGrace(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != exec.StatusKilled || len(res.Stopped) != 3 || !strings.Contains(res.Message, "deadline exceeded") {
		t.Errorf("Run = %+v", res)
	}
	assertNoSurvivors(t, m)
}

// TestRunSignalChannel: a signal that arrives on the caller's channel goes
// to the shell's group. It is queued before Run starts: Run reads the
// channel only once the shell exists, so the shell gets it either way.
func TestRunSignalChannel(t *testing.T) {
	m := marker(t)
	ch := make(chan os.Signal, 1)
	ch <- syscall.SIGTERM
	res, err := exec.Run(context.Background(), "sleep "+m, exec.WithSignalChannel(ch))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != exec.StatusKilled || res.Signal != syscall.SIGTERM || res.ExitCode != 143 {
		t.Errorf("Run = %+v", res)
	}
	assertNoSurvivors(t, m)
}

func TestRunStartErrors(t *testing.T) {
	for _, c := range []struct {
		shell string
		code  int
	}{{"no-such-shell-xyz", 127}, {"/nonexistent/sh", 127}, {"/etc/passwd", 126}, {"/", 126}} {
		_, err := exec.Run(context.Background(), "true", exec.WithShell(c.shell))
		var se *exec.StartError
		if !errors.As(err, &se) || se.ExitCode() != c.code {
			t.Errorf("shell %q: %v, want a StartError with code %d", c.shell, err, c.code)
		}
	}
}

// TestRunStdoutClosed: when the destination goes away, the shell gets
// SIGPIPE as it would writing there directly.
func TestRunStdoutClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	res, err := exec.Run(context.Background(), "yes", exec.WithStdout(w))
	if err != nil || res.Status != exec.StatusKilled || res.ExitCode != 128+13 {
		t.Errorf("Run = %+v, %v", res, err)
	}
	_ = io.Discard
}

// The library tests below start jobs from this process: the supervisor is
// this test binary re-executed (the CLI tests get it through main).
func init() { exec.MaybeSupervise() }

// TestRunPromotion: the planner's jobs start as managed jobs before the
// foreground; a job that cannot be started runs in the shell instead, with
// everything after it, and the message says so.
func TestRunPromotion(t *testing.T) {
	m := marker(t)
	store, err := exec.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	flag := filepath.Join(t.TempDir(), "job-ran")
	first := "echo one >" + flag + "; exec sleep " + m
	// The shell waits for its own background `echo two`: without the
	// wait, a machine at load 40 had not run it when the shell exited,
	// and the leftover policy (kill) stopped it before it wrote.
	script := first + " & echo two & echo fg; wait"
	second := strings.Index(script, "echo two")
	plan := func(s string) (*exec.Plan, error) {
		if s != script {
			return nil, errors.New("unexpected script")
		}
		return &exec.Plan{Foreground: " echo fg; wait", Jobs: []exec.PlannedJob{
			{Script: first, Start: 0, End: len(first) + 2},
			{Script: "", Start: second, End: second + len("echo two &")}, // Store.Start refuses an empty command
		}}, nil
	}
	var out bytes.Buffer
	res, err := exec.Run(context.Background(), script, exec.WithPromotion(store, plan, "s"), exec.WithStdout(&out), exec.WithLeftovers(exec.KillLeftovers))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if len(res.Promoted) != 1 || res.Promoted[0].Origin != exec.OriginPromoted || res.Promoted[0].Session != "s" {
		t.Fatalf("promoted %+v", res.Promoted)
	}
	if !strings.Contains(res.Message, "could not start") {
		t.Errorf("message %q", res.Message)
	}
	// The shell ran the rest: the second job (in the background, so in
	// either order) and the foreground.
	if got := out.String(); got != "two\nfg\n" && got != "fg\ntwo\n" {
		t.Errorf("stdout %q", got)
	}
	j := res.Promoted[0]
	// The job runs on its own: wait (a loaded machine may be slow to
	// schedule it) for what it writes.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(flag); len(b) > 0 {
			break
		}
	}
	if b, _ := os.ReadFile(flag); string(b) != "one\n" {
		t.Errorf("the promoted job wrote %q", b)
	}
	if cur, err := store.Load(j.ID); err != nil || cur.Status != exec.JobRunning {
		t.Errorf("the promoted job: %+v, %v", cur, err)
	}
	if k, err := store.Kill(context.Background(), j.ID, 100*time.Millisecond); err != nil || k.Status != exec.JobKilled {
		t.Errorf("Kill = %+v, %v", k, err)
	}
	assertNoSurvivors(t, m)
}
