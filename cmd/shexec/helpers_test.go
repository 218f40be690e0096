//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// shexecBin is the command under test, built once per test run.
var shexecBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shexec-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shexecBin = filepath.Join(dir, "shexec")
	build := osexec.Command("go", "build", "-o", shexecBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building shexec:", err)
		os.Exit(1)
	}
	// The shells the tests start read no dotfile of the machine's user: a
	// login shell's ~/.profile can do work of its own (pyenv's rehash
	// waits 60 s for a lock file a killed shell left behind), and
	// what the tests check is shexec's behaviour, not the profile's.
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	os.Unsetenv("ZDOTDIR")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// markerSeq makes markers unique within the run; the pid makes them unique
// among concurrent runs (other packages' tests use small sleep durations).
var markerSeq atomic.Int64

// marker returns a number used as a sleep duration in the test's commands,
// so that the processes the test started can be counted exactly by their
// argv, and kills them (by pid, after checking the marker) at cleanup, also
// when the test failed.
func marker(t *testing.T) string {
	t.Helper()
	m := strconv.Itoa(70_000_000 + (os.Getpid()%10_000)*1_000 + int(markerSeq.Add(1)))
	t.Cleanup(func() {
		for _, pid := range survivors(m) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return m
}

// survivors lists the live (non-zombie) processes whose argv mentions m.
func survivors(m string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(b, []byte(m)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

func assertNoSurvivors(t *testing.T, m string) {
	t.Helper()
	if s := survivors(m); len(s) > 0 {
		var desc []string
		for _, pid := range s {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			desc = append(desc, fmt.Sprintf("%d %q", pid, strings.ReplaceAll(string(b), "\x00", " ")))
		}
		t.Errorf("processes with marker %s survived: %s", m, strings.Join(desc, "; "))
	}
}

type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

// shexec runs the built binary with args and stdin, and kills it (by pid)
// if it has not finished after 20s.
func shexec(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return runBounded(t, shexecBin, stdin, args...)
}

// runBounded runs a program as shexec is run by the tests: stdin from a
// pipe, stdout and stderr into pipes, killed after 20s; a signal death is
// code -N.
func runBounded(t *testing.T, name, stdin string, args ...string) result {
	t.Helper()
	cmd := osexec.Command(name, args...)
	// Jobs that --leftovers adopt (the default) would create go to a
	// private store, not the user's.
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// Stdout and stderr are pipes copied by os/exec; shexec must close its
	// ends at exit, leftovers or not. WaitDelay turns a regression into a
	// failure instead of a hung test.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	res := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	var ee *osexec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
		if ws := ee.Sys().(syscall.WaitStatus); ws.Signaled() {
			res.code = -int(ws.Signal()) // as Python's returncode shows it
		}
	default:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return res
}
