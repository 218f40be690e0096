//go:build linux

package main

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The programs that let a user give only a shell's path, run for real with
// shexec as that path.

// needProgram skips the test when a program is not installed.
func needProgram(t *testing.T, name string) string {
	t.Helper()
	p, err := osexec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (.ci/run installs it)", name)
	}
	return p
}

// runProgram runs a program with a private job store, bounded to 30s, and
// returns its combined output and error.
func runProgram(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := osexec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SHEXEC_HOME="+t.TempDir()), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	return out.String(), err
}

// TestMake: GNU make with SHELL := shexec and .SHELLFLAGS := -eu -o
// pipefail -c prints and fails exactly as with SHELL := bash.
func TestMake(t *testing.T) {
	t.Parallel()
	needProgram(t, "make")
	dir := t.TempDir()
	mk := `SHELL := $(SH)
.SHELLFLAGS := -eu -o pipefail -c
all: ok piped
sig:
	@echo before; kill -TERM $$$$
ok:
	@echo "flags $$-"; x=1; echo "x=$$x"
	@echo second line >&2
piped:
	@false | true
	@echo unreached
`
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644)
	bash, _ := osexec.LookPath("bash")
	want, werr := runProgram(t, dir, nil, "make", "-s", "SH="+bash)
	got, gerr := runProgram(t, dir, nil, "make", "-s", "SH="+shexecBin)
	if got != strings.ReplaceAll(want, bash, shexecBin) || (werr == nil) != (gerr == nil) {
		t.Errorf("make with SHELL=bash: %q (%v)\nmake with SHELL=shexec: %q (%v)", want, werr, got, gerr)
	}
	if !strings.Contains(want, "flags ehuBc") || werr == nil {
		t.Errorf("the Makefile does not test what it should: %q (%v)", want, werr)
	}
	// A recipe's shell that dies of a signal: make says so ("Terminated").
	want, werr = runProgram(t, dir, nil, "make", "-s", "SH="+bash, "sig")
	got, gerr = runProgram(t, dir, nil, "make", "-s", "SH="+shexecBin, "sig")
	if got != want || !strings.Contains(want, "Terminated") || (werr == nil) != (gerr == nil) {
		t.Errorf("signal death under make: bash %q (%v), shexec %q (%v)", want, werr, got, gerr)
	}
}

// TestPythonSubprocess: subprocess.run(shell=True, executable=shexec)
// without HOME, and with timeout= (in time, and expired).
func TestPythonSubprocess(t *testing.T) {
	t.Parallel()
	needProgram(t, "python3")
	m := marker(t)
	prog := `
import subprocess, sys
shexec = sys.argv[1]
env = {"PATH": "/usr/local/bin:/usr/bin:/bin"}
r = subprocess.run('echo "$0 $HOME"; echo err >&2; exit 3', shell=True, executable=shexec, env=env, capture_output=True, text=True)
print("no-home", r.returncode, repr(r.stdout), repr(r.stderr))
r = subprocess.run("echo fast", shell=True, executable=shexec, capture_output=True, text=True, timeout=20)
print("in-time", r.returncode, repr(r.stdout), repr(r.stderr))
try:
    subprocess.run("(sleep ` + m + ` &); sleep ` + m + `", shell=True, executable=shexec, capture_output=True, timeout=0.4)
    print("expired: no")
except subprocess.TimeoutExpired:
    print("expired: yes")
`
	out, err := runProgram(t, "", nil, "python3", "-c", prog, shexecBin)
	// Python runs executable with argv[0] "/bin/sh"; shexec runs bash,
	// whose $0 is its own name then.
	want := "no-home 3 'bash \\n' 'err\\n'\nin-time 0 'fast\\n' ''\nexpired: yes\n"
	if err != nil || out != want {
		t.Errorf("python: %v\n%s\nwant:\n%s", err, out, want)
	}
	// The expired timeout SIGKILLed shexec: its watchdog stops the
	// background sleep that Pdeathsig (the shell's only) does not reach.
	deadline := time.Now().Add(1500 * time.Millisecond)
	for len(survivors(m)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	assertNoSurvivors(t, m)
}

// TestPythonSignalDeath: a shell that dies of a signal is a signal death
// for Python too (returncode -N), as with bash; --json still reports it.
func TestPythonSignalDeath(t *testing.T) {
	t.Parallel()
	needProgram(t, "python3")
	prog := `
import json, subprocess, sys
shexec = sys.argv[1]
for sig in ["TERM", "INT", "SEGV"]:
    b = subprocess.run(["bash", "-c", "echo out; kill -%s $$" % sig], capture_output=True)
    s = subprocess.run("echo out; kill -%s $$" % sig, shell=True, executable=shexec, capture_output=True)
    print(sig, b.returncode, s.returncode, s.returncode == b.returncode, s.stdout == b.stdout, s.stderr == b.stderr)
s = subprocess.run([shexec, "--json", "-c", "kill -TERM $$"], capture_output=True)
o = json.loads(s.stdout)
print("json", s.returncode, o["status"], o["exit_code"], o["signal"])
`
	out, err := runProgram(t, "", nil, "python3", "-c", prog, shexecBin)
	want := "TERM -15 -15 True True True\nINT -2 -2 True True True\nSEGV -11 -11 True True True\njson -15 killed 143 SIGTERM\n"
	if err != nil || out != want {
		t.Errorf("python: %v\n%s\nwant:\n%s", err, out, want)
	}
}

// TestNodeExecSync: child_process.execSync with shell: shexec.
func TestNodeExecSync(t *testing.T) {
	t.Parallel()
	needProgram(t, "node")
	prog := `
const cp = require("child_process");
const shell = process.argv[1];
process.stdout.write(cp.execSync('echo "hello $0"; echo err >&2', {shell, stdio: ["pipe", "pipe", "ignore"]}).toString());
try { cp.execSync("echo out; exit 7", {shell, stdio: "pipe"}); } catch (e) { console.log("status", e.status, JSON.stringify(e.stdout.toString())); }
try { cp.execSync("kill -TERM $$", {shell, stdio: "pipe"}); } catch (e) { console.log("signal", e.signal, e.status); }
`
	out, err := runProgram(t, "", nil, "node", "-e", prog, shexecBin)
	want := "hello bash\nstatus 7 \"out\\n\"\nsignal SIGTERM null\n"
	if err != nil || out != want {
		t.Errorf("node: %v\n%s\nwant:\n%s", err, out, want)
	}
}

// TestNpmScriptShell: npm run with --script-shell shexec.
func TestNpmScriptShell(t *testing.T) {
	t.Parallel()
	npm := needProgram(t, "npm")
	dir := t.TempDir()
	pkg := `{"name": "t", "version": "1.0.0", "scripts": {"hello": "echo \"hi from $npm_lifecycle_event\"; exit 0", "fail": "echo failing; exit 4"}}`
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644)
	env := []string{"npm_config_cache=" + t.TempDir(), "npm_config_update_notifier=false"}
	out, err := runProgram(t, dir, env, npm, "run", "--silent", "--script-shell", shexecBin, "hello")
	if err != nil || out != "hi from hello\n" {
		t.Errorf("npm run hello: %v: %q", err, out)
	}
	out, err = runProgram(t, dir, env, npm, "run", "--silent", "--script-shell", shexecBin, "fail")
	var ee *osexec.ExitError
	if !strings.HasPrefix(out, "failing\n") || !asExit(err, &ee) || ee.ExitCode() != 4 {
		t.Errorf("npm run fail: %v: %q", err, out)
	}
}

func asExit(err error, ee **osexec.ExitError) bool {
	e, ok := err.(*osexec.ExitError)
	*ee = e
	return ok
}

// TestInteractiveOnTerminal: with no command and a terminal for stdin,
// shexec runs an interactive shell (prompt, job control, the terminal in
// its foreground) that a user cannot tell from the shell itself.
func TestInteractiveOnTerminal(t *testing.T) {
	t.Parallel()
	script := needProgram(t, "script")
	in := "echo \"flags=$-\"\ntty >/dev/null && echo on-a-tty\nexit 3\n"
	run := func(shell string) (string, error) {
		cmd := osexec.Command(script, "-qec", shell+" --norc", "/dev/null")
		cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir(), "PS1=$ ")
		cmd.Stdin = strings.NewReader(in)
		cmd.WaitDelay = time.Second
		timer := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
		defer timer.Stop()
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	want, werr := run("bash")
	got, gerr := run(shexecBin)
	// The terminal echoes what arrives before the shell turns echo off, a
	// race with script(1) feeding the input; from the first command's
	// output on, everything is the shell's.
	fromPrompt := func(s string) string {
		if i := strings.LastIndex(s, "flags="); i >= 0 {
			return s[i:]
		}
		return s
	}
	got, want = fromPrompt(got), fromPrompt(want)
	var ee *osexec.ExitError
	if got != want || !asExit(gerr, &ee) || ee.ExitCode() != 3 || !strings.Contains(want, "flags=himBHs") || !strings.Contains(want, "on-a-tty") {
		t.Errorf("bash: %q (%v)\nshexec: %q (%v)", want, werr, got, gerr)
	}
}

// TestTmuxDefaultShell: tmux starts its default-shell as "-NAME", a login
// shell, on a terminal: shexec runs an interactive login bash there.
func TestTmuxDefaultShell(t *testing.T) {
	t.Parallel()
	tmux := needProgram(t, "tmux")
	dir := t.TempDir()
	sock, out := filepath.Join(dir, "sock"), filepath.Join(dir, "out")
	cmd := osexec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "20",
		";", "set-option", "-g", "default-shell", shexecBin,
		";", "new-window",
		";", "send-keys", `shopt login_shell > `+out+`.tmp; echo "$-" >> `+out+`.tmp; mv `+out+`.tmp `+out, "Enter")
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+filepath.Join(dir, "home"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, b)
	}
	t.Cleanup(func() { osexec.Command(tmux, "-S", sock, "kill-server").Run() })
	var b []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ = os.ReadFile(out); len(b) > 0 {
			break
		}
	}
	if got := string(b); !strings.HasPrefix(got, "login_shell    \ton\n") || !strings.Contains(got, "i") || !strings.Contains(got, "m") {
		t.Errorf("in tmux: %q", got)
	}
}
