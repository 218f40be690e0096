//go:build linux

package main

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseInvocation: where each shell's options end and what follows.
func TestParseInvocation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shell string
		args  []string
		want  invocation
	}{
		{"bash", []string{"-c", "echo", "n", "a"}, invocation{mode: modeCommand, flags: []string{"-c"}, command: "echo", operands: []string{"n", "a"}}},
		{"bash", []string{"-lc", "x"}, invocation{mode: modeCommand, flags: []string{"-lc"}, command: "x", operands: []string{}}},
		{"bash", []string{"-eu", "-o", "pipefail", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"-eu", "-o", "pipefail", "-c"}, command: "x", operands: []string{}}},
		{"bash", []string{"-c", "-e", "x", "-e"}, invocation{mode: modeCommand, flags: []string{"-c", "-e"}, command: "x", operands: []string{"-e"}}},
		{"bash", []string{"-o", "-c", "x"}, invocation{mode: modeFile, flags: []string{"-o", "-c"}, file: "x", operands: []string{}}}, // -o takes the next word, even -c
		{"bash", []string{"-O", "extglob", "+O", "nullglob", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"-O", "extglob", "+O", "nullglob", "-c"}, command: "x", operands: []string{}}},
		{"bash", []string{"--rcfile", "-c", "-i"}, invocation{mode: modeStdin, flags: []string{"--rcfile", "-c", "-i"}, operands: []string{}, interactive: true}},
		{"bash", []string{"--norc", "--login", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"--norc", "--login", "-c"}, command: "x", operands: []string{}}},
		{"bash", []string{"-c", "--", "x", "y"}, invocation{mode: modeCommand, flags: []string{"-c", "--"}, command: "x", operands: []string{"y"}}},
		{"bash", []string{"--", "-c", "y"}, invocation{mode: modeFile, flags: []string{"--"}, file: "-c", operands: []string{"y"}}},
		{"bash", []string{"-", "f"}, invocation{mode: modeFile, flags: []string{"-"}, file: "f", operands: []string{}}},
		{"bash", []string{"-e", "f.sh", "-c", "x"}, invocation{mode: modeFile, flags: []string{"-e"}, file: "f.sh", operands: []string{"-c", "x"}}},
		{"bash", []string{"-s", "a", "-c"}, invocation{mode: modeStdin, flags: []string{"-s"}, operands: []string{"a", "-c"}}},
		{"bash", []string{}, invocation{mode: modeStdin, flags: []string{}, operands: []string{}}},
		{"bash", []string{"-ic", "x"}, invocation{mode: modeCommand, flags: []string{"-ic"}, command: "x", operands: []string{}, interactive: true}},
		{"bash", []string{"-nc", "x"}, invocation{mode: modeCommand, flags: []string{"-nc"}, command: "x", operands: []string{}, noexec: true}},
		{"bash", []string{"-o", "noexec", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"-o", "noexec", "-c"}, command: "x", operands: []string{}, noexec: true}},
		{"bash", []string{"+n", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"+n", "-c"}, command: "x", operands: []string{}}},
		{"bash", []string{"-ec"}, invocation{mode: modeInvalid, flags: []string{"-ec"}, operands: []string{}}},
		{"/usr/bin/bash", []string{"+c", "x"}, invocation{mode: modeFile, flags: []string{"+c"}, file: "x", operands: []string{}}},
		{"zsh", []string{"-oerrexit", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"-oerrexit", "-c"}, command: "x", operands: []string{}}},
		{"zsh", []string{"-o", "errexit", "-lc", "x"}, invocation{mode: modeCommand, flags: []string{"-o", "errexit", "-lc"}, command: "x", operands: []string{}}},
		{"zsh", []string{"-b", "-c"}, invocation{mode: modeFile, flags: []string{"-b"}, file: "-c", operands: []string{}}},
		{"zsh", []string{"--no-exec", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"--no-exec", "-c"}, command: "x", operands: []string{}, noexec: true}},
		{"dash", []string{"-oerrexit", "-c", "x"}, invocation{mode: modeFile, flags: []string{"-oerrexit", "-c"}, file: "x", operands: []string{}}},
		{"sh", []string{"-ec", "x", "n"}, invocation{mode: modeCommand, flags: []string{"-ec"}, command: "x", operands: []string{"n"}}},
		{"mksh", []string{"-T-", "-c", "x"}, invocation{mode: modeCommand, flags: []string{"-T-", "-c"}, command: "x", operands: []string{}}},
		{"fish", []string{"-c", "x"}, invocation{mode: modeCommand, flags: []string{"-c"}, command: "x", operands: []string{}}},
	} {
		got := parseInvocation(grammarFor(c.shell), c.args)
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(invocation{})); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", c.shell, c.args, diff)
		}
		if a := got.args(); !slicesEqual(a, c.args) {
			t.Errorf("%s %q: args() gives %q back", c.shell, c.args, a)
		}
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestInvocationLikeShells runs every invocation form under the real shell
// and under shexec, and wants the same stdout, stderr and exit status (or
// signal).
func TestInvocationLikeShells(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "script.sh")
	os.WriteFile(script, []byte("echo \"0=${0##*/} #=$# @=$*\"\necho \"flags=$-\" | tr -d hBHs\nfalse\necho after false\n"), 0o644)
	failing := filepath.Join(dir, "fail.sh")
	os.WriteFile(failing, []byte("echo start; exit 5\n"), 0o644)
	const show = `echo "0=$0 #=$# @=$*"; echo "$-" | tr -d hBHs`
	type form struct {
		args  []string
		stdin string
	}
	all := []form{
		{args: []string{"-c", show, "name", "a b", "-x"}},
		{args: []string{"-c", show}},
		{args: []string{"-lc", `echo "0=$0"`}},
		{args: []string{"-ec", `false; echo unreached`}},
		{args: []string{"-c", "-e", `false; echo unreached`}},
		{args: []string{"-eu", "-o", "errexit", "-c", `echo "$-" | tr -d hBHs; echo "$unset"`}},
		{args: []string{"-x", "-c", `echo "$1"`, "n", "traced"}},
		{args: []string{"-v", "-c", `echo verbose`}},
		{args: []string{"-f", "-c", `echo /*`}},
		{args: []string{"-n", "-c", `echo never`}},
		{args: []string{"+o", "errexit", "-c", `false; echo on`}},
		{args: []string{"-c", "--", show, "n", "-c"}},
		{args: []string{"--", script, "a", "b"}},
		{args: []string{script, "a", "b"}},
		{args: []string{"-e", script, "x"}},
		{args: []string{"-x", failing}},
		{args: []string{filepath.Join(dir, "missing.sh")}},
		{args: []string{"-s", "a", "b"}, stdin: show + "\nexit 3\n"},
		{args: []string{}, stdin: show + "\nexit 4\n"},
		{args: []string{}, stdin: "read x\nhello stdin\necho \"got $x\"\n"},
		{args: []string{"-e"}, stdin: "false\necho unreached\n"},
		{args: []string{"-c"}},
		{args: []string{"-Z", "-c", "true"}},
	}
	// mksh dies of a signal sent to itself only when it leads its process
	// group, as it does under shexec; run by a caller directly it exits
	// 128+N instead. The other shells die of it either way.
	signals := []form{
		{args: []string{"-c", "echo before; kill -TERM $$"}},
		{args: []string{}, stdin: "echo before\nkill -HUP $$\n"},
	}
	all = slices.Concat(all, signals)
	bashOnly := []form{
		{args: []string{"-eu", "-o", "pipefail", "-c", `false | true; echo unreached`}},
		{args: []string{"-euxc", `echo "$-"`}},
		{args: []string{"-O", "extglob", "-c", `shopt extglob`}},
		{args: []string{"+O", "extglob", "-c", `shopt extglob`}},
		{args: []string{"--norc", "--noprofile", "-c", `echo norc`}},
		{args: []string{"--posix", "-c", `shopt -o posix`}},
		{args: []string{"--login", "-c", `shopt login_shell`}},
		{args: []string{"--norc", "-ic", `echo "$-" | tr -d hBHs`}},
		{args: []string{"--bogus", "-c", "true"}},             // not shexec's: bash refuses it
		{args: []string{"-n", "-c", `echo never; sleep 1 &`}}, // nothing started, not even as a job
	}
	zshOnly := []form{
		{args: []string{"-oerrexit", "-c", `false; echo unreached`}},
		{args: []string{"--norcs", "-c", `echo norcs`}},
		{args: []string{"-b", show}},
	}
	shells := map[string][]form{"bash": slices.Concat(all, bashOnly), "zsh": slices.Concat(all, zshOnly), "dash": all, "sh": all, "mksh": all[:len(all)-len(signals)]}
	for sh, forms := range shells {
		if _, err := osexec.LookPath(sh); err != nil {
			t.Logf("%s not installed: its forms are not compared", sh)
			continue
		}
		for _, f := range forms {
			t.Run(sh+" "+strings.Join(f.args, " "), func(t *testing.T) {
				t.Parallel()
				want := runShell(t, sh, f.args, f.stdin)
				got := shexec(t, f.stdin, append([]string{"--shell", sh}, f.args...)...)
				got.elapsed = 0
				got.stderr = normalizePIDs(got.stderr)
				if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
					t.Errorf("%s vs shexec --shell %s (-%s +shexec):\n%s", sh, sh, sh, diff)
				}
			})
		}
	}
}

// runShell runs the real shell as the tests run shexec; its stderr is
// normalized as shexec's is.
func runShell(t *testing.T, sh string, args []string, stdin string) result {
	t.Helper()
	res := runBounded(t, sh, stdin, args...)
	res.elapsed = 0
	res.stderr = normalizePIDs(res.stderr)
	return res
}

// normalizePIDs replaces the pid in an interactive shell's "cannot set
// terminal process group (PID)".
func normalizePIDs(s string) string { return pidRE.ReplaceAllString(s, "(PID)") }

var pidRE = regexp.MustCompile(`\(-?\d+\)`)

// TestSettingsFromEnv: SHEXEC_* variables set shexec's flags for hosts that
// take only a path; the command line wins over them.
func TestSettingsFromEnv(t *testing.T) {
	t.Parallel()
	run := func(env []string, args ...string) result {
		cmd := osexec.Command(shexecBin, args...)
		cmd.Env = append(append(os.Environ(), "SHEXEC_HOME="+t.TempDir()), env...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		return result{stdout: out.String(), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
	}
	for _, c := range []struct {
		env  []string
		args []string
		want result
	}{
		{[]string{"SHEXEC_SHELL=dash"}, []string{"-c", `echo "$0"`}, result{stdout: "dash\n"}},
		{[]string{"SHEXEC_SHELL=dash"}, []string{"--shell", "bash", "-c", `echo "$0"`}, result{stdout: "bash\n"}},
		{[]string{"SHEXEC_TIMEOUT=0.2", "SHEXEC_GRACE=1"}, []string{"-c", "sleep 5"}, result{code: 124, stderr: "shexec: timed out after 200ms; stopped 1 process with SIGTERM: sleep 5 (pid PID)\n"}},
		{[]string{"SHEXEC_TIMEOUT=0.2"}, []string{"--timeout", "0", "-c", "sleep 0.4; echo in time"}, result{stdout: "in time\n"}},
		{[]string{"SHEXEC_NON_INTERACTIVE=1"}, []string{"-c", `echo "$PAGER"`}, result{stdout: "cat\n"}},
		{[]string{"SHEXEC_TIMEOUT=soon"}, []string{"-c", "true"}, result{code: 125, stderr: "shexec: $SHEXEC_TIMEOUT: invalid value \"soon\": \"soon\" is neither a duration (500ms, 2m) nor a number of seconds\nRun 'shexec --help' for usage.\n"}},
	} {
		got := run(c.env, c.args...)
		got.stderr = regexp.MustCompile(`pid \d+`).ReplaceAllString(got.stderr, "pid PID")
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("%q shexec %q (-want +got):\n%s", c.env, c.args, diff)
		}
	}
}

// TestLoginByName: started with a '-' before its name, as tmux starts its
// default-shell and login(1) a login shell, shexec runs a login shell.
func TestLoginByName(t *testing.T) {
	t.Parallel()
	cmd := osexec.Command(shexecBin)
	cmd.Args = []string{"-shexec"}
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader("shopt login_shell\n")
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "login_shell    \ton\n" {
		t.Errorf("%v: %q", err, out)
	}
}

// TestPromotedJobGetsShellFlags: a background statement promoted to a job
// runs with the options of the command it came from (-x here, -l for
// agents' `-lc` and its PATH).
func TestPromotedJobGetsShellFlags(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	m := marker(t)
	r := shexecJob(t, home, "-x", "-c", "sleep "+m+" & echo started")
	if r.stdout != "started\n" || r.code != 0 || !strings.Contains(r.stderr, "+ echo started\n") {
		t.Fatalf("got %q, exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	j := findJob(t, home, m)
	if j.Origin != "promoted" {
		t.Fatalf("job %+v", j)
	}
	eventually(t, func() bool {
		return shexecJob(t, home, "logs", "--stderr", j.ID).stdout == "+ sleep "+m+"\n"
	})
}

// TestJobRunsGetShellFlags: --yield and --background run the command with
// the shell's options too.
func TestJobRunsGetShellFlags(t *testing.T) {
	t.Parallel()
	home := newHome(t)
	r := shexecJob(t, home, "--yield", "5", "-eu", "-o", "pipefail", "-c", "false | true; echo unreached")
	if r.stdout != "" || r.code != 1 {
		t.Errorf("--yield with -eu -o pipefail: %q exit %d, stderr %q", r.stdout, r.code, r.stderr)
	}
	r = shexecJob(t, home, "--background", "-xc", "echo hi")
	id := strings.TrimSpace(r.stdout)
	shexecJob(t, home, "wait", id)
	if l := shexecJob(t, home, "logs", "--stderr", id); l.stdout != "+ echo hi\n" {
		t.Errorf("--background -xc: stderr log %q", l.stdout)
	}
}
