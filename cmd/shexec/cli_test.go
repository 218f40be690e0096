//go:build linux

package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestLikeBash runs each command under `bash -c` and under `shexec -c` with
// the same operands and stdin, and wants the same stdout, stderr and status.
func TestLikeBash(t *testing.T) {
	t.Parallel()
	cases := []struct {
		script string
		args   []string
		stdin  string
	}{
		{script: `exit 0`},
		{script: `exit 3`},
		{script: `exit 255`},
		{script: `exit 300`},
		{script: `false`},
		{script: `nonexistent-command-xyz`},
		{script: `echo "0=$0 #=$# 1=$1 2=$2 @=$*"`, args: []string{"name", "a b", "-x"}},
		{script: `echo "0=$0 @=$*"`, args: []string{"--", "-c", "--timeout"}},
		{script: `echo "0=$0"`},
		{script: `printf 'no newline'; printf 'err' >&2`},
		{script: `kill -TERM $$`},
		{script: `kill -KILL $$`},
		{script: `kill -INT $$`},
		{script: `echo out; echo err >&2; kill -QUIT $$`},
		{script: `echo out; kill -SEGV $$`},
		{script: `echo out; kill -ABRT $$`},
		{script: `kill -USR1 $$`},
		{script: `cat; echo done`, stdin: "line 1\nline 2\x00\xff"},
		{script: `read a; read b; echo "$b/$a"; exit 7`, stdin: "x\ny\n"},
		{script: `for i in 1 2 3; do echo out$i; echo err$i >&2; done`},
		{script: `syntax error (`},
		{script: `echo x & syntax error (`},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			bash := osexec.Command("bash", append([]string{"-c", c.script}, c.args...)...)
			bash.Stdin = strings.NewReader(c.stdin)
			var bout, berr bytes.Buffer
			bash.Stdout, bash.Stderr = &bout, &berr
			bash.Run()
			want := result{stdout: bout.String(), stderr: berr.String(), code: bash.ProcessState.ExitCode()}
			if ws := bash.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
				want.code = -int(ws.Signal()) // shexec must die of it too
			}
			got := shexec(t, c.stdin, append([]string{"-c", c.script}, c.args...)...)
			got.elapsed = 0
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
				t.Errorf("bash -c vs shexec -c (-bash +shexec):\n%s", diff)
			}
		})
	}
}

// TestBytesExact pushes random binary data through stdin to stdout and to
// stderr, more than a pipe buffer's worth.
func TestBytesExact(t *testing.T) {
	t.Parallel()
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	for _, c := range []struct {
		script string
		stderr bool
	}{{`cat`, false}, {`cat >&2`, true}, {`head -c 1000 >/dev/null; cat`, false}} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			got := shexec(t, string(data), "-c", c.script)
			if got.code != 0 {
				t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
			}
			out, other := got.stdout, got.stderr
			want := data
			if c.stderr {
				out, other = other, out
			}
			if strings.HasPrefix(c.script, "head") {
				want = data[1000:]
			}
			if out != string(want) {
				t.Errorf("output differs: got %d bytes, want %d", len(out), len(want))
			}
			if other != "" {
				t.Errorf("other stream: %q", other)
			}
		})
	}
}

// TestInterleavingWithOnePipe: when the caller merges stdout and stderr
// (`2>&1`, what agent tools do), the lines keep the shell's order.
func TestInterleavingWithOnePipe(t *testing.T) {
	t.Parallel()
	cmd := osexec.Command(shexecBin, "-c", `for i in $(seq 200); do echo out$i; echo err$i >&2; done`)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= 200; i++ {
		want.WriteString("out" + strconv.Itoa(i) + "\nerr" + strconv.Itoa(i) + "\n")
	}
	if string(out) != want.String() {
		t.Errorf("order lost:\n%s", out)
	}
}

// TestPromptReturn: a background job holding the output does not hold
// shexec, and is stopped.
func TestPromptReturn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ script, want string }{
		{`sleep %M & echo hi`, "hi\n"},
		{`cd /tmp && sleep %M &>/dev/null & sleep 0.2; echo ok`, "ok\n"},
		{`sleep %M 2>&1 >/dev/null & echo two`, "two\n"},
		{`nohup sleep %M & echo three`, "three\n"},
	} {
		t.Run(c.script, func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			// The held sleep would hold shexec forever (and the runner
			// kills it at 20 s: no exit 0); a grace of 10 s makes a
			// shexec that waits it out instead of for the sleep's end
			// take 10 s. Within 5 s is neither, with seconds to spare
			// for a busy machine (900 ms, the bound before, was crossed
			// at load 25: 1.6 and 2.0 s).
			got := shexec(t, "", "--leftovers", "kill", "--grace", "10", "-c", strings.ReplaceAll(c.script, "%M", m))
			if got.stdout != c.want || got.code != 0 {
				t.Errorf("got %q exit %d, want %q exit 0", got.stdout, got.code, c.want)
			}
			if got.elapsed > 5*time.Second {
				t.Errorf("took %v", got.elapsed)
			}
			if got.stderr != "" {
				t.Errorf("stderr %q: only a job that holds work is worth a line", got.stderr)
			}
			assertNoSurvivors(t, m)
		})
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	for _, script := range []string{
		`sleep %M`,
		`trap "" TERM; sleep %M`,
		`setsid sleep %M & sleep %M`,
		`(sleep %M &); sleep %M`,
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			got := shexec(t, "", "--timeout", "1s", "--grace", "0.5", "-c", strings.ReplaceAll(script, "%M", m))
			if got.code != 124 {
				t.Errorf("exit %d, want 124", got.code)
			}
			lines := strings.Split(strings.TrimSuffix(got.stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "shexec: timed out after 1s; ") || !strings.Contains(lines[0], "sleep "+m) {
				t.Errorf("stderr: %q", got.stderr)
			}
			if got.elapsed < time.Second || got.elapsed > 4*time.Second {
				t.Errorf("took %v", got.elapsed)
			}
			assertNoSurvivors(t, m)
		})
	}
}

func TestTimeoutSyntax(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"0.3", "300ms", "1"} {
		got := shexec(t, "", "--timeout", arg, "--grace", "0", "-c", "sleep 5")
		// sleep 5 would take 5s; the margin is for loaded machines.
		if got.code != 124 || got.elapsed > 4*time.Second {
			t.Errorf("--timeout %s: exit %d after %v", arg, got.code, got.elapsed)
		}
	}
}

func TestExitOnSignalOfShell(t *testing.T) {
	t.Parallel()
	got := shexec(t, "", "--json", "-c", "kill -TERM $$")
	var j jsonResult
	if err := json.Unmarshal([]byte(got.stdout), &j); err != nil {
		t.Fatal(err)
	}
	if got.code != -int(syscall.SIGTERM) || j.Status != "killed" || j.ExitCode != 143 || j.Signal != "SIGTERM" {
		t.Errorf("exit %d, json %+v", got.code, j)
	}
}

// TestLeftoverPolicies: kill leaves nothing alive; keep leaves the leftovers
// running (and shexec still returns).
func TestLeftoverPolicies(t *testing.T) {
	t.Parallel()
	t.Run("kill", func(t *testing.T) {
		t.Parallel()
		m := marker(t)
		got := shexec(t, "", "--leftovers", "kill", "--grace", "0.3", "-c", "setsid sleep "+m+" & (trap '' TERM; sleep "+m+") & echo x")
		if got.stdout != "x\n" || got.code != 0 {
			t.Errorf("got %q exit %d", got.stdout, got.code)
		}
		assertNoSurvivors(t, m)
	})
	t.Run("keep", func(t *testing.T) {
		t.Parallel()
		m := marker(t)
		got := shexec(t, "", "--leftovers", "keep", "--json", "-c", "sleep "+m+" & echo x")
		var j jsonResult
		if err := json.Unmarshal([]byte(got.stdout), &j); err != nil {
			t.Fatal(err)
		}
		if j.Stdout != "x\n" || len(j.Leftovers) != 1 || j.Leftovers[0].Action != "kept" || !j.Leftovers[0].HoldsOutput {
			t.Errorf("json: %+v", j)
		}
		if got.elapsed > 900*time.Millisecond {
			t.Errorf("took %v", got.elapsed)
		}
		if s := survivors(m); len(s) != 1 {
			t.Errorf("kept leftover: %v", s)
		}
	})
}

func TestJSON(t *testing.T) {
	t.Parallel()
	m := marker(t)
	got := shexec(t, "", "--json", "--leftovers", "kill", "--max-output", "100", "-c",
		`printf 'é%.0s' $(seq 5000); echo END; echo err >&2; sleep `+m+` & exit 3`)
	dec := json.NewDecoder(strings.NewReader(got.stdout))
	var j jsonResult
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%v in %q", err, got.stdout)
	}
	if dec.More() {
		t.Errorf("more than one JSON value on stdout: %q", got.stdout)
	}
	if got.code != 3 || j.Status != "exited" || j.ExitCode != 3 {
		t.Errorf("exit %d, status %q, exit_code %d", got.code, j.Status, j.ExitCode)
	}
	if !j.Truncated || j.StdoutBytes != 10004 || j.Stderr != "err\n" {
		t.Errorf("truncated %v, stdout_bytes %d, stderr %q", j.Truncated, j.StdoutBytes, j.Stderr)
	}
	if !strings.HasPrefix(j.Stdout, strings.Repeat("é", 25)+"\n[... shexec: ") || !strings.HasSuffix(j.Stdout, "bytes dropped ...]\n"+strings.Repeat("é", 23)+"END\n") {
		t.Errorf("stdout: %q", j.Stdout)
	}
	if len(j.Leftovers) != 1 || j.Leftovers[0].Action != "terminated" || !j.Leftovers[0].Descendant {
		t.Errorf("leftovers: %+v", j.Leftovers)
	}
	if j.DurationMS <= 0 || j.DurationMS > 2000 {
		t.Errorf("duration_ms %d", j.DurationMS)
	}
	assertNoSurvivors(t, m)

	got = shexec(t, "", "--json", "--timeout", "0.2", "-c", "sleep "+m)
	if err := json.Unmarshal([]byte(got.stdout), &j); err != nil {
		t.Fatal(err)
	}
	if got.code != 124 || j.Status != "timeout" || j.ExitCode != 124 || len(j.Stopped) != 1 || j.Stopped[0].Signal != "SIGTERM" || !strings.Contains(j.Message, "timed out") {
		t.Errorf("timeout json: %+v", j)
	}
}

func TestNonInteractive(t *testing.T) {
	t.Parallel()
	got := shexec(t, "this must not be read\n", "--non-interactive", "-c",
		`echo "$PAGER $GIT_PAGER $GIT_EDITOR $EDITOR $VISUAL $GIT_TERMINAL_PROMPT $TERM $NO_COLOR $DEBIAN_FRONTEND"; cat`)
	if want := "cat cat true true true 0 dumb 1 noninteractive\n"; got.stdout != want || got.code != 0 {
		t.Errorf("got %q exit %d, want %q", got.stdout, got.code, want)
	}
}

func TestShells(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"dash", "sh", "/bin/sh", "bash"} {
		got := shexec(t, "", "--shell", sh, "-c", `echo "$0:$1"; exit 4`, "n", "a")
		if got.stdout != "n:a\n" || got.code != 4 {
			t.Errorf("--shell %s: %q exit %d (stderr %q)", sh, got.stdout, got.code, got.stderr)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	notExec := filepath.Join(t.TempDir(), "notexec")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--timeout"}, 125, "flag needs an argument: --timeout"},
		{[]string{"--yield", "1", "script.sh"}, 125, "--yield run a command string"},
		{[]string{"--timeout", "soon", "-c", "true"}, 125, "neither a duration"},
		{[]string{"--timeout", "-1", "-c", "true"}, 125, "negative"},
		{[]string{"--leftovers", "adopt-maybe", "-c", "true"}, 125, "unknown leftover policy"},
		{[]string{"--shell", "no-such-shell-xyz", "-c", "true"}, 127, "no-such-shell-xyz"},
		{[]string{"--shell", notExec, "-c", "true"}, 126, "permission denied"},
	} {
		got := shexec(t, "", c.args...)
		if got.code != c.code || !strings.Contains(got.stderr, c.msg) || got.stdout != "" {
			t.Errorf("shexec %q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, got.code, got.stdout, got.stderr, c.code, c.msg)
		}
	}
	got := shexec(t, "", "--help")
	for _, want := range []string{"Usage:", "--timeout", "--leftovers", "124", "125", "126", "127", "128+N", "--json"} {
		if !strings.Contains(got.stdout, want) || got.code != 0 {
			t.Errorf("--help lacks %q (exit %d)", want, got.code)
		}
	}
}

// TestPdeathsig: when shexec is killed, the shell does not outlive it.
func TestPdeathsig(t *testing.T) {
	t.Parallel()
	m := marker(t)
	cmd := osexec.Command(shexecBin, "-c", "trap '' TERM; echo ready; sleep "+m+"; true")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("read %q", line)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// The shell dies at once; its sleep is in the same group but not ours
	// to chase once shexec is gone, so only the shell is checked.
	eventually(t, func() bool {
		for _, pid := range survivors(m) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); strings.HasPrefix(string(b), "bash") {
				return false
			}
		}
		return true
	})
}

// TestSignalForwarding: SIGINT and SIGTERM sent to shexec reach the shell.
func TestSignalForwarding(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			cmd := osexec.Command(shexecBin, "--leftovers", "kill", "-c", "trap 'echo got it; exit 7' "+strings.TrimPrefix(signalName(sig), "SIG")+"; sleep "+m+" & echo ready; wait")
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			r := bufio.NewReader(out)
			if line, _ := r.ReadString('\n'); line != "ready\n" {
				t.Fatalf("read %q", line)
			}
			cmd.Process.Signal(sig)
			rest, _ := io.ReadAll(r)
			err := cmd.Wait()
			if string(rest) != "got it\n" || cmd.ProcessState.ExitCode() != 7 {
				t.Errorf("after %v: output %q, wait %v", sig, rest, err)
			}
			assertNoSurvivors(t, m)
		})
	}
}

func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 3s")
}

func TestParseDuration(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"5": 5 * time.Second, "0.5": 500 * time.Millisecond, "1m30s": 90 * time.Second, "250ms": 250 * time.Millisecond, "0": 0} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "-2s", "NaN", "1e300", "5 s"} {
		if _, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q) accepted", in)
		}
	}
}

// TestPreexistingChildrenAreNotOurs: `shexec ... > >(tee log)` execs shexec
// in a process that already has a child (the tee). It is not a leftover of
// the run, and it must not be touched.
func TestPreexistingChildrenAreNotOurs(t *testing.T) {
	t.Parallel()
	m := marker(t)
	script := `exec "$0" --json --leftovers kill -c 'echo hi' > >(sed s/^/sub:/; sleep ` + m + `)`
	got := shexec(t, "", "--leftovers", "kill", "-c", script, shexecBin)
	// The outer shexec kills the process substitution once the inner one,
	// which replaced the shell, has exited; the inner one must not have
	// seen it as a leftover.
	var inner jsonResult
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got.stdout, "sub:")), &inner); err != nil || inner.Stdout != "hi\n" || len(inner.Leftovers) != 0 || got.stderr != "" {
		t.Errorf("stdout %q (%v), stderr %q", got.stdout, err, got.stderr)
	}
	assertNoSurvivors(t, m)
}

// TestTerminal: on a terminal, the shell's group is made the foreground (or
// its first read would stop it with SIGTTIN), and the terminal is given
// back when it exits (or the caller's next read would stop).
func TestTerminal(t *testing.T) {
	t.Parallel()
	script, err := osexec.LookPath("script")
	if err != nil {
		t.Skip("script(1), needed for a pty, is not installed")
	}
	cmd := osexec.Command(script, "-qec", shexecBin+` --timeout 5 -c 'read x; echo "got $x"'; read y; echo "after $y"`, "/dev/null")
	cmd.Stdin = strings.NewReader("one\ntwo\n")
	cmd.WaitDelay = time.Second
	timer := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "got one") || !strings.Contains(string(out), "after two") {
		t.Errorf("%v: %q", err, out)
	}
}

// TestSlowReader: with a leftover holding the pipe, the quiet period must
// not cut the end of the shell's own output when the caller reads slowly.
func TestSlowReader(t *testing.T) {
	t.Parallel()
	m := marker(t)
	data := make([]byte, 900_000)
	rand.Read(data)
	file := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(shexecBin, "--leftovers", "kill", "-c", "cat "+file+"; sleep "+m+" &")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var got []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(out, buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("got %d bytes, want the %d the shell wrote", len(got), len(data))
	}
	assertNoSurvivors(t, m)
}

// `shexec mcp` becomes shexec-mcp; without it installed it says how to get
// it and exits 125.
func TestMCPProgramMissing(t *testing.T) {
	t.Parallel()
	cmd := osexec.Command(shexecBin, "mcp", "--help")
	cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
	out, err := cmd.CombinedOutput()
	var ee *osexec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(string(out), "go install github.com/shguard/shguard/cmd/shexec-mcp@latest") {
		t.Errorf("err %v, output %q", err, out)
	}
}

// With --leftovers kill the shell writes straight into the caller's pipe
// (no copy): the bytes all arrive, and a process that daemonized itself
// holding the pipe is stopped at exit, so the caller still gets its EOF.
func TestDirectOutputWithLeftoversKill(t *testing.T) {
	t.Parallel()
	got := shexec(t, "", "--leftovers", "kill", "-c", "head -c 5000000 /dev/zero; echo end")
	if got.code != 0 || len(got.stdout) != 5000004 || !strings.HasSuffix(got.stdout, "end\n") {
		t.Fatalf("exit %d, %d bytes", got.code, len(got.stdout))
	}
	m := marker(t)
	got = shexec(t, "", "--leftovers", "kill", "--grace", "0.3", "-c", "perl -e 'exit 0 if fork; exec qw(sleep "+m+")'; echo started")
	if got.code != 0 || got.stdout != "started\n" || got.elapsed > 5*time.Second {
		t.Fatalf("exit %d, stdout %q, took %v", got.code, got.stdout, got.elapsed)
	}
	assertNoSurvivors(t, m)
}
