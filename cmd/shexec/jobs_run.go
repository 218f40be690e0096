//go:build linux || darwin || freebsd

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shguard/shguard/exec"
)

// jobRun is a command run as a managed job: --background or --yield.
type jobRun struct {
	script, shell  string
	flags          []string // the shell's options up to -c, as written
	args           []string // $0 and $@, when given
	timeout, grace time.Duration
	yield          time.Duration // 0 with background
	background     bool
	json           bool
	nonInteractive bool
	session        string
	maxOutput      int
	keepFor        time.Duration // the store's retention (exec.Store.KeepFor, Keep)
	keep           int
}

// runAsJob starts the command under a job supervisor. With --background it
// returns at once with the job id; with --yield it follows the job's logs
// until the job ends (then it behaves like a plain run, and the record is
// removed: nobody was told its id) or the yield time passes (then the job
// goes on and its id is reported).
func runAsJob(jr jobRun, stdin *os.File, stdout, stderr io.Writer) int {
	start := time.Now()
	st, err := exec.OpenStore("")
	if err != nil {
		fmt.Fprintf(stderr, "shexec: %v\n", err)
		return exitUsage
	}
	st.KeepFor, st.Keep = jr.keepFor, jr.keep
	env := os.Environ()
	stdinMode := exec.JobStdinPipe
	if jr.nonInteractive {
		env = append(env, exec.NonInteractiveEnv...) // later entries win
		stdinMode = exec.JobStdinNull
	}
	j, err := st.Start(context.Background(), exec.JobSpec{
		Command: jr.script, Shell: jr.shell, Flags: jr.flags, Args: jr.args, Env: env, Session: jr.session,
		Timeout: jr.timeout, Grace: jr.grace, Stdin: stdinMode,
	})
	if err != nil {
		fmt.Fprintf(stderr, "shexec: %v\n", err)
		if jr.json {
			writeJSON(stdout, jsonResult{Status: "error", ExitCode: exitUsage, Message: err.Error(), Leftovers: []exec.Leftover{}})
		}
		return exitUsage
	}
	if jr.background {
		if jr.json {
			writeJSON(stdout, jsonResult{Status: "running", JobID: j.ID, Jobs: []string{j.ID}, Leftovers: []exec.Leftover{}})
		} else {
			fmt.Fprintln(stdout, j.ID)
		}
		return 0
	}

	if stdinMode == exec.JobStdinPipe {
		go feedStdin(st, j.ID, stdin)
	}
	var outW, errW io.Writer = stdout, stderr
	var outCap, errCap *exec.Capture
	if jr.json {
		outCap, errCap = exec.NewCapture(jr.maxOutput), exec.NewCapture(jr.maxOutput)
		outW, errW = outCap, errCap
	}
	// ^C or SIGTERM while following stops the job too: until the yield the
	// command is in the foreground, as without --yield.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	id := j.ID
	// The yield counts from shexec's start, not from the job's: the caller
	// asked to get control back after that long.
	wait := max(jr.yield-time.Since(start), time.Millisecond)
	j, err = st.Follow(ctx, id, wait, outW, errW)
	if err != nil {
		st.Kill(context.Background(), id, jr.grace)
		fmt.Fprintf(stderr, "shexec: %v; job %s stopped\n", err, id)
		return 128 + int(syscall.SIGINT)
	}
	res := jsonResult{
		Status: string(j.Status), ExitCode: j.WaitCode(), Signal: j.Signal,
		DurationMS: time.Since(start).Milliseconds(), Leftovers: []exec.Leftover{}, Message: j.Note,
	}
	if j.Finished() {
		st.Remove(j.ID)
		if j.Status == exec.JobTimedOut {
			fmt.Fprintf(stderr, "shexec: %s\n", j.Note)
		}
	} else {
		res.Status, res.ExitCode, res.JobID, res.Jobs = "running", exitRunning, j.ID, []string{j.ID}
		res.Message = fmt.Sprintf("still running after %v; continues as job %s", jr.yield, j.ID)
		fmt.Fprintf(stderr, "shexec: %s (shexec logs %s, shexec wait %s, shexec kill %s)\n", res.Message, j.ID, j.ID, j.ID)
	}
	if jr.json {
		res.Stdout, res.Stderr = outCap.String(), errCap.String()
		res.StdoutBytes, res.StderrBytes = outCap.Total(), errCap.Total()
		res.Truncated = outCap.Truncated() || errCap.Truncated()
		writeJSON(stdout, res)
	}
	// Finished within the yield by a signal: die of it, as a plain run does.
	if j.Finished() && j.Status == exec.JobKilled && j.Signal != "" {
		if sig := unix.SignalNum(j.Signal); sig != 0 {
			return -int(sig)
		}
	}
	return res.ExitCode
}

// feedStdin forwards shexec's stdin to a yielding job's stdin pipe. When
// stdin is /dev/null (how agent tools start commands) nothing is forwarded
// and the pipe stays open, so that `shexec write ID ... --eof` can answer a
// prompt after the yield; otherwise EOF on our stdin is passed on, as with
// `bash -c`. Forwarding stops when shexec exits at the yield.
func feedStdin(st *exec.Store, id string, stdin *os.File) {
	if stdin == nil || isDevNull(stdin) {
		return
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := stdin.Read(buf)
		if n > 0 {
			if st.Write(id, buf[:n], false) != nil {
				return
			}
		}
		if err != nil {
			st.Write(id, nil, true)
			return
		}
	}
}

func isDevNull(f *os.File) bool {
	var a, b unix.Stat_t
	if unix.Stat(os.DevNull, &b) != nil {
		return false
	}
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var serr error
	if c.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &a) }) != nil || serr != nil {
		return false
	}
	return a.Mode&unix.S_IFMT == unix.S_IFCHR && a.Rdev == b.Rdev
}
