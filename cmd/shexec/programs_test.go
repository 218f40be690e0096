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
    subprocess.run("sleep ` + m + `", shell=True, executable=shexec, capture_output=True, timeout=0.3)
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
`
	out, err := runProgram(t, "", nil, "node", "-e", prog, shexecBin)
	want := "hello bash\nstatus 7 \"out\\n\"\n"
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
