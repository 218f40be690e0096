//go:build linux || darwin || freebsd

// Command shexec is a drop-in replacement for `bash -c` that cannot hang its
// caller and leaves no process behind. See `shexec --help`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shguard/shguard/exec"
	// The main goroutine's stack grown once as the program starts,
	// instead of twice later, each copy walking every frame (its doc).
	_ "github.com/shguard/shguard/internal/startstack"
)

// exitUsage is shexec's own failure status. 124 (timeout), 126 and 127
// (shell not executable / not found) follow timeout(1); 125 is free in
// both bash and timeout(1) for "the wrapper itself failed".
const exitUsage = 125

// exitRunning is the status of --yield when the command is still running
// at the yield and goes on as a job: not 0, which a caller would read as
// success, and next to timeout(1)'s 124-127 block, which holds shexec's
// other statuses of its own.
const exitRunning = 123

const usageHead = `shexec runs a shell like the shell itself would run, but cannot hang its
caller and leaves no process behind.

Usage:
  shexec [--flags...] SHELL-ARGS...
  shexec [--flags...] -c CMD [NAME [ARG...]]
  shexec [--flags...] [-eu -o pipefail -lc ...] CMD [NAME [ARG...]]
  shexec [--flags...] [SHELL-OPTIONS] SCRIPT-FILE [ARG...]
  shexec [--flags...] [SHELL-OPTIONS] [-s [ARG...]]  (script on stdin, or an
                                                    interactive shell on a tty)

SHELL-ARGS are exactly the arguments of the shell shexec runs (--shell,
default bash), read by that shell's grammar and passed to it unchanged:
-c, -l, -lc, -eu, -euxc, -o OPT, +o OPT, -O/+O SHOPT, --norc, --login,
--posix, --, -s, a script file and its arguments, a script on stdin, -i.
$0 and $@, stdin, stdout, stderr and the exit status are the shell's. So
shexec can be given where only a shell's path is taken: make SHELL (with
.SHELLFLAGS), npm script-shell, Python's executable=, Node's shell option,
tmux's default-shell (started as '-shexec', it runs a login shell).

shexec's own settings are the long flags below, before the shell's
arguments (the first word that is not one of them starts those), or
SHEXEC_<FLAG> environment variables for hosts that take only a path:
SHEXEC_SHELL, SHEXEC_TIMEOUT, SHEXEC_GRACE, SHEXEC_LEFTOVERS,
SHEXEC_PROMOTE, SHEXEC_NON_INTERACTIVE, SHEXEC_QUIET, SHEXEC_KEEP_JOBS,
SHEXEC_KEEP_JOBS_FOR (the command line wins).
Background statements of a -c command can be promoted to jobs; a script
file or a script on stdin runs unchanged; an interactive shell runs under
supervision without analysis.

What it adds:
  * The shell runs in its own process group, and shexec is a child subreaper:
    processes that escape the group (setsid, double forks, nohup, disown) are
    re-parented to shexec, so they can still be found and stopped.
  * shexec returns as soon as the shell has exited and its output is
    delivered, even if a background process still holds the output pipe
    (with 'bash -c', a reader waiting for EOF would hang until that process
    exits). Processes still there at that moment are "leftovers". If every
    background statement of the script is brief (the analysis says it ends
    within a moment: a quick builtin, a sleep under a second), they are
    waited for up to 1s, as the shell's caller would have, and those that
    end are neither reported nor adopted; the rest goes to --leftovers
    (--json lists them all).
  * Quiet: nothing on stderr that the shell would not have written, except
    one line when a job now holds work the command started (its id, what
    it runs, how to read and stop it), and the reason for a timeout.
    --quiet (SHEXEC_QUIET=1) silences those too.
  * Background statements at the start of CMD ('server & sleep 1; curl ...')
    are started as managed jobs before the rest runs (--promote): their
    output goes to job logs, and a line on stderr names each job.
  * --timeout stops the whole tree: SIGTERM to the group and to every
    escapee, --grace to exit, then SIGKILL, even for processes that ignore
    SIGTERM. Signals go through pidfds: a recycled pid is never hit.
  * SIGINT, SIGTERM and SIGHUP sent to shexec are forwarded to the shell's
    group. If shexec is killed, the shell gets SIGKILL.

Flags:
`

const usageTail = `
Durations are Go durations (500ms, 30s, 1m30s) or bare seconds (5, 0.5).

If shexec itself is killed (kill -9, the OOM killer, Python's timeout=):
  once the shell has run for 50ms a watchdog process (shexec-watchdog, in
  a session of its own) reads the run's processes every 100ms; when shexec
  dies without saying it is done, the watchdog SIGKILLs within a second
  what it last saw (same pid and start time) and what is below it, the
  shell's process group, and every process with the run's SHEXEC_RUN_ID.
  Managed jobs are left to their supervisors. Linux, macOS and FreeBSD;
  what the command started in its first 50ms, and a process that both
  scrubbed its environment and escaped between two readings, can survive.

Exit status:
  N        the shell's status
  signal N if the shell died of signal N, shexec dies of it too, once the
           output is delivered and leftovers are handled (no core dump):
           its caller sees what the shell's caller would see (Python's
           returncode -N); 128+N only where the signal cannot end it
  123      --yield: the command still runs and goes on as a job (its id on
           stderr, or job_id with --json)
  124      --timeout expired (a line on stderr says what was stopped)
  125      shexec itself failed: bad usage, cannot set up the run
  126      the shell cannot be executed
  127      the shell was not found
  With --json the status is the same (a signal death too), and also in the
  object ("exit_code": 128+N and "signal" for a signal death).

--json prints exactly one object on stdout:
  {"status": "exited"|"timeout"|"killed"|"running" (--yield)|"error",
   "exit_code": N,
   "signal": "SIGTERM" (when the shell died of a signal),
   "stdout": "...", "stderr": "...", "stdout_bytes": N, "stderr_bytes": N,
   "truncated": bool, "duration_ms": N,
   "stopped": [{"pid", "command", "signal"}] (timeout),
   "leftovers": [{"pid", "command", "holds_output", "descendant", "action"}],
   "jobs": ["id"] (background statements promoted to jobs, then leftovers
            adopted as a job),
   "job_id": "id" (--yield, --background: the job CMD goes on as),
   "message": "one-line account of an abnormal end"}
  stdout and stderr keep their first and last --max-output/2 bytes; the
  middle is replaced by a line saying how many bytes were dropped. Memory
  stays bounded whatever the command prints.

Examples:
  shexec -c 'make test'                       # like bash -c, never hangs
  shexec -eu -o pipefail -lc 'npm ci && npm test'
  make SHELL=shexec .SHELLFLAGS='-eu -o pipefail -c'
  SHEXEC_TIMEOUT=600 python3 -c 'import subprocess; subprocess.run("make", shell=True, executable="shexec")'
  shexec -e ./deploy.sh prod                  # a script file and its arguments
  shexec --timeout 30 -c 'npm test' tool      # $0 is "tool"; exit 124 after 30s
  shexec --json --non-interactive -c 'git log'
  shexec -c 'cd app && ./server &>/dev/null & sleep 1; curl localhost:8080'
  shexec --shell dash -c 'echo "$1"' sh hello
`

func main() {
	exec.MaybeSupervise() // a job's supervisor is shexec re-executed
	exec.MaybeWatchdog()  // and so is a run's watchdog
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if code < 0 {
		dieOfSignal(syscall.Signal(-code))
	}
	os.Exit(code)
}

// run is the whole command, separated from main for tests. It returns the
// exit status, or -N when shexec must die of signal N as the shell did.
func run(args []string, stdin, stdout, stderr *os.File) int {
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(args[1:], stderr)
	}
	if isJobsCommand(args) {
		return runJobsCommand(args[0], args[1:], stdout, stderr)
	}
	o, own, code := parseOptions(args, stdout, stderr)
	if o == nil {
		return code
	}
	inv := parseInvocation(grammarFor(o.shell), args[own:])
	if o.login {
		inv.flags = append([]string{"-l"}, inv.flags...)
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "shexec: "+format+"\nRun 'shexec --help' for usage.\n", a...)
		return exitUsage
	}
	if o.background || o.yield > 0 {
		if inv.mode != modeCommand {
			return usageErr("--background and --yield run a command string: -c CMD")
		}
		jr := jobRun{script: inv.command, flags: inv.flags, args: inv.operands, shell: o.shell, timeout: o.timeout, grace: o.grace,
			yield: o.yield, background: o.background, json: o.json, nonInteractive: o.nonInteractive,
			session: o.session, maxOutput: o.maxOutput, keepFor: o.keepFor, keep: o.keep}
		return runAsJob(jr, stdin, stdout, stderr)
	}
	// Promotion and adoption both create job records; whoever asked for
	// --leftovers kill or keep asked for none, unless --promote says so.
	promoting := o.leftovers == "adopt"
	if o.promoteSet {
		promoting = o.promote
	}
	// An interactive shell has no script to analyse; a shell that only
	// reads its script (-n) must not have any of it started by us either.
	analysing := !inv.interactive && !inv.noexec
	promoting = promoting && analysing && inv.mode == modeCommand
	var store *exec.Store
	if promoting || o.leftovers == "adopt" {
		var err error
		// Made on disk only if a job is created: most commands create none.
		if store, err = exec.StoreAt(""); err != nil {
			return usageErr("job store: %v", err)
		}
		store.KeepFor, store.Keep = o.keepFor, o.keep
	}

	opts := []exec.Option{
		exec.WithShell(o.shell),
		exec.WithTimeout(o.timeout),
		exec.WithGrace(o.grace),
		exec.WithSignalChannel(forwardedSignals()),
	}
	if watchdog {
		opts = append(opts, exec.WithWatchdog())
	}
	script, shellStdin := newScriptSource(inv, stdin)
	if !analysing {
		script, shellStdin = nil, stdin
	}
	opts = append(opts, exec.WithStdin(shellStdin))
	command := ""
	if inv.mode == modeCommand {
		command = inv.command
		opts = append(opts, exec.WithShellFlags(inv.flags...))
		if len(inv.operands) > 0 {
			opts = append(opts, exec.WithArgs(inv.operands[0], inv.operands[1:]...))
		}
	} else {
		opts = append(opts, exec.WithShellArgs(inv.args()...))
	}

	var adopt *exec.AdoptPolicy
	var policy exec.LeftoverPolicy
	if o.leftovers == "adopt" {
		adopt = &exec.AdoptPolicy{Store: store, Session: o.session}
		policy = adopt
	} else {
		p, err := exec.ParseLeftoverPolicy(o.leftovers)
		if err != nil {
			return usageErr("--leftovers: %v", err)
		}
		policy = p
	}
	opts = append(opts, exec.WithLeftovers(&leftoverPolicy{next: policy, adopt: adopt, script: script, shell: o.shell, promoting: promoting}))
	if o.nonInteractive {
		opts = append(opts, exec.WithNonInteractive())
	}
	if o.leftovers == "kill" {
		// Leftovers are killed at exit anyway, so the shell may write
		// straight into the caller's pipes: no copy hop (exec's
		// WithDirectOutput). Adopting them (the default) needs the copy:
		// a job cannot hold the caller's pipe without keeping it waiting.
		opts = append(opts, exec.WithDirectOutput())
	}
	if promoting {
		opts = append(opts, exec.WithPromotion(store, planner(o.shell), o.session))
	}
	var outCap, errCap *exec.Capture
	if o.json {
		outCap, errCap = exec.NewCapture(o.maxOutput), exec.NewCapture(o.maxOutput)
		opts = append(opts, exec.WithStdout(outCap), exec.WithStderr(errCap))
	} else {
		opts = append(opts, exec.WithStdout(stdout), exec.WithStderr(stderr))
	}

	res, err := exec.Run(context.Background(), command, opts...)
	if err != nil {
		code := exitUsage
		var se *exec.StartError
		if errors.As(err, &se) {
			code = se.ExitCode()
		}
		fmt.Fprintf(stderr, "shexec: %v\n", err)
		if o.json {
			writeJSON(stdout, jsonResult{Status: "error", ExitCode: code, Message: err.Error(), Leftovers: []exec.Leftover{}})
		}
		return code
	}

	// Nothing on stderr that the shell would not have written, except
	// where work the command started goes on in a job (the caller must
	// hear of that) and the reason for an abnormal end; --quiet silences
	// those too.
	note := func(format string, a ...any) {
		if !o.quiet && !o.json {
			fmt.Fprintf(stderr, "shexec: "+format+"\n", a...)
		}
	}
	if res.Message != "" {
		note("%s", res.Message)
	}
	var jobIDs []string
	for _, j := range res.Promoted {
		jobIDs = append(jobIDs, j.ID)
		// After a timeout the jobs were stopped, and the message says so.
		if res.Status != exec.StatusTimeout {
			note("started job %s: %s (shexec logs %s, shexec kill %s)", j.ID, scriptLine(j.Command), j.ID, j.ID)
		}
	}
	if adopt != nil && adopt.Job != nil {
		jobIDs = append(jobIDs, adopt.Job.ID)
		note("%s", jobLine(adopt.Job))
	}
	if o.json {
		j := jsonResult{
			Status:      string(res.Status),
			ExitCode:    res.ExitCode,
			Stdout:      outCap.String(),
			Stderr:      errCap.String(),
			StdoutBytes: outCap.Total(),
			StderrBytes: errCap.Total(),
			Truncated:   outCap.Truncated() || errCap.Truncated(),
			DurationMS:  res.Duration.Milliseconds(),
			Stopped:     res.Stopped,
			Leftovers:   res.Leftovers,
			Message:     res.Message,
		}
		j.Jobs = jobIDs
		if res.Signal != 0 {
			j.Signal = signalName(res.Signal)
		}
		if j.Leftovers == nil {
			j.Leftovers = []exec.Leftover{}
		}
		writeJSON(stdout, j)
	}
	if res.Status == exec.StatusKilled && res.Signal != 0 {
		return -int(res.Signal)
	}
	return res.ExitCode
}

// watchdog: every run gets the kill -9 watchdog (exec.WithWatchdog). Only a
// probe build for bench/shexec.sh (-tags shexec_nowatchdog) goes without,
// to show what the mechanism costs a run that ends before it starts.
var watchdog = true

// forwardedSignals registers SIGINT, SIGTERM and SIGHUP for the run to
// forward to the shell's group. It is never unregistered: shexec exits once
// the run is over, and signal.Stop would only add work after the shell has
// exited (see exec.WithSignalChannel).
func forwardedSignals() <-chan os.Signal {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	return ch
}

type jsonResult struct {
	Status      string          `json:"status"`
	ExitCode    int             `json:"exit_code"`
	Signal      string          `json:"signal,omitempty"`
	Stdout      string          `json:"stdout"`
	Stderr      string          `json:"stderr"`
	StdoutBytes int64           `json:"stdout_bytes"`
	StderrBytes int64           `json:"stderr_bytes"`
	Truncated   bool            `json:"truncated"`
	DurationMS  int64           `json:"duration_ms"`
	Stopped     []exec.Stopped  `json:"stopped,omitempty"`
	Leftovers   []exec.Leftover `json:"leftovers"`
	Message     string          `json:"message,omitempty"`
	JobID       string          `json:"job_id,omitempty"` // --yield, --background: the job CMD goes on as
	Jobs        []string        `json:"jobs,omitempty"`   // jobs created by this run: promoted, then adopted leftovers
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// scriptLine shows a promoted job's script (its prelude's statements, then
// the command) on one line, keeping the statements apart.
func scriptLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
		syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
		syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
		syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
		syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
		syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
	}
	if n, ok := names[s]; ok {
		return n
	}
	return "signal " + strconv.Itoa(int(s))
}

// durationFlag accepts Go durations and bare (possibly fractional) seconds,
// the form timeout(1) users type.
type durationFlag time.Duration

func (d *durationFlag) String() string {
	if *d == 0 {
		return "0" // pflag shows no default for "0", as for a plain zero
	}
	return time.Duration(*d).String()
}
func (d *durationFlag) Type() string { return "duration" }
func (d *durationFlag) Set(s string) error {
	v, err := parseDuration(s)
	if err != nil {
		return err
	}
	*d = durationFlag(v)
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	var v time.Duration
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs != secs || secs > float64(1<<62)/float64(time.Second) { // NaN or too long
			return 0, fmt.Errorf("%q is too long", s)
		}
		v = time.Duration(secs * float64(time.Second))
	} else if v, err = time.ParseDuration(s); err != nil {
		return 0, fmt.Errorf("%q is neither a duration (500ms, 2m) nor a number of seconds", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return v, nil
}
