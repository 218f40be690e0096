//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Status says how a run ended.
type Status string

const (
	// StatusExited: the shell exited on its own; ExitCode is its status.
	StatusExited Status = "exited"
	// StatusTimeout: the timeout expired and everything was stopped;
	// ExitCode is 124, as with timeout(1).
	StatusTimeout Status = "timeout"
	// StatusKilled: the shell died of a signal (ExitCode 128+N), or the
	// context was cancelled and everything was stopped.
	StatusKilled Status = "killed"
)

// ExitTimeout is the exit code of a run stopped by its timeout.
const ExitTimeout = 124

// Result describes a finished run.
type Result struct {
	Status   Status
	ExitCode int
	// Signal is the signal that killed the shell, if one did.
	Signal   syscall.Signal
	Duration time.Duration
	// Stopped lists the processes signalled because of the timeout or a
	// cancellation.
	Stopped []Stopped
	// Leftovers lists what was still there when the shell exited and what
	// the policy did with it.
	Leftovers []Leftover
	// Promoted lists the jobs started for the script's background
	// statements (see WithPromotion), in order, as they were at their
	// start.
	Promoted []*Job
	// Message is a one-line account of an abnormal end (timeout,
	// cancellation), empty otherwise.
	Message string
}

// Stopped is a process that Run had to stop.
type Stopped struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	// Signal is the last signal it was sent: SIGTERM if that was enough,
	// SIGKILL if it had to be forced.
	Signal string `json:"signal"`
}

// StartError means the shell never ran.
type StartError struct {
	Op  string
	Err error
}

func (e *StartError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// ExitCode follows env(1) and timeout(1): 127 when the shell does not exist,
// 126 when it cannot be executed, 125 for any other failure. None of these
// can be confused with a status of the shell run as the shell's own 126/127
// are only for commands it runs.
func (e *StartError) ExitCode() int {
	switch {
	case errors.Is(e.Err, os.ErrNotExist), errors.Is(e.Err, osexec.ErrNotFound):
		return 127
	case errors.Is(e.Err, os.ErrPermission), errors.Is(e.Err, unix.ENOEXEC):
		return 126
	}
	return 125
}

// runMu serialises runs: see Run.
var runMu sync.Mutex

// Run runs script with `SHELL -c` (or the caller's own options, see
// WithShellFlags and WithShellArgs) and returns when the shell has exited and
// its output has been delivered, whatever the processes it started are still
// doing; those are handled by the leftover policy before Run returns.
//
// The shell runs in its own process group, so that it and its jobs can be
// signalled as one without hitting the caller. The calling process becomes a
// child subreaper (PR_SET_CHILD_SUBREAPER), so that processes escaping the
// group (setsid, double forks, nohup) are re-parented to it instead of init
// and can still be found, stopped and reaped. If the caller dies, the shell
// gets SIGKILL (Pdeathsig).
//
// A subreaper must reap every orphan the kernel hands it, and those cannot
// be told apart from children the program starts by other means. While Run
// is in progress it therefore owns the child processes of the calling
// program: it reaps every child that exits, and treats every descendant as
// part of the run except the children (and their subtrees) that existed
// before it started. Runs are serialised, and a program must not start and
// wait for children of its own (os/exec) while a Run is in progress. The
// shexec command runs one Run per process, which satisfies this by
// construction.
//
// The error is a *StartError when the shell could not be started; a shell
// that ran and failed is reported in the Result.
func Run(ctx context.Context, script string, opts ...Option) (*Result, error) {
	cfg := defaults()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.hasShellArgs && script != "" {
		return nil, &StartError{"start", errors.New("a script with WithShellArgs")}
	}
	if cfg.prepare != nil && !cfg.hasShellArgs {
		s, err := cfg.prepare(script)
		if err != nil {
			return nil, &StartError{"prepare", err}
		}
		script = s
	}
	if err := ctx.Err(); err != nil {
		return nil, &StartError{"start", err}
	}
	path, err := lookShell(cfg.shell)
	if err != nil {
		return nil, &StartError{"shell", err}
	}
	var shellArgs []string // $0 and $@
	if cfg.hasName {
		shellArgs = append([]string{cfg.name}, cfg.args...)
	}
	env := cfg.env
	if !cfg.hasEnv {
		env = os.Environ()
	}
	if cfg.nonInteractive {
		env = mergeEnv(env, NonInteractiveEnv)
	}
	var runID string
	if cfg.watchdog || needRunMarker {
		// Unique among the runs of this machine, not secret: the pid
		// tells live callers apart, the generator (seeded by the runtime)
		// a pid's successive runs. Cheaper at start than getrandom and
		// fmt, which every shexec start would pay.
		runID = strconv.FormatUint(uint64(os.Getpid()), 36) + "-" + strconv.FormatUint(rand.Uint64(), 36)
		env = mergeEnv(env, []string{RunIDEnv + "=" + runID})
	}

	runMu.Lock()
	defer runMu.Unlock()
	if err := becomeSubreaper(); err != nil {
		return nil, &StartError{subreaperOp, err}
	}
	r := &run{cfg: cfg, self: os.Getpid(), handles: map[procKey]*handle{}}
	// Promoted jobs start first, so that their supervisors are among the
	// children that existed before the run (r.foreign): theirs, not ours
	// to report as leftovers or to stop.
	script, runShell, promoteMsg := r.promote(ctx, script, shellArgs, env)
	if !runShell {
		return &Result{Status: StatusExited, Promoted: r.promoted, Message: promoteMsg}, nil
	}
	argv := []string{cfg.shell}
	switch {
	case cfg.hasShellArgs:
		argv = append(argv, cfg.shellArgs...)
	default:
		argv = append(append(append(argv, cfg.flags()...), script), shellArgs...)
	}
	if mayHaveLeftovers() {
		r.foreign = map[procKey]bool{}
		for _, pid := range childPids(r.self) {
			if p, err := readStat(pid); err == nil {
				r.foreign[p.key()] = true
			}
		}
	}
	defer r.release()
	r.runID = runID
	res, err := r.run(ctx, path, argv, env)
	if err != nil {
		// The shell never ran; neither may the jobs promoted out of it.
		r.stopPromoted()
		return nil, err
	}
	res.Promoted = r.promoted
	if promoteMsg != "" {
		res.Message = strings.TrimPrefix(res.Message+"; ", "; ") + promoteMsg
	}
	return res, nil
}

func lookShell(shell string) (string, error) {
	if shell == "" {
		return "", errors.New("empty shell name")
	}
	if strings.Contains(shell, "/") {
		st, err := os.Stat(shell)
		if err != nil {
			return "", err
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return "", &os.PathError{Op: "exec", Path: shell, Err: os.ErrPermission}
		}
		return shell, nil
	}
	return osexec.LookPath(shell)
}

// mergeEnv returns env with the assignments of over replacing or adding to
// its entries.
func mergeEnv(env, over []string) []string {
	keys := map[string]bool{}
	for _, kv := range over {
		k, _, _ := strings.Cut(kv, "=")
		keys[k] = true
	}
	out := make([]string, 0, len(env)+len(over))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !keys[k] {
			out = append(out, kv)
		}
	}
	return append(out, over...)
}

// run is the state of one Run.
type run struct {
	cfg  config
	self int

	shellPid int
	// shellStart is the shell's start time, where runProcs needs it (no
	// subreaper): nothing older is the run's.
	shellStart uint64

	// mu guards shellReaped. While the shell is not reaped its pid, which
	// is also its process group id, cannot be recycled, so signalling the
	// group is safe exactly as long as shellReaped is false.
	mu          sync.Mutex
	shellReaped bool

	streams [3]*stream // by the shell's fd number; [0] unused
	closers []int      // descriptors to close once the shell has started

	handles map[procKey]*handle

	// tty is a terminal among the shell's stdio of which the caller's
	// process group is the foreground, or -1. See foregroundTTY.
	tty int

	// promoted are the jobs started for the script's background
	// statements (WithPromotion).
	promoted []*Job

	// runID is the run's marker (RunIDEnv) when it has a watchdog.
	runID string

	// direct are the inodes of the caller's pipes the shell writes to
	// itself (WithDirectOutput).
	direct []uint64

	// foreign are the children the process had before the run, with
	// everything below them: not ours to report or stop. A command run as
	// `shexec ... > >(tee log)` has one: bash forks the tee, then execs
	// shexec in the same process.
	foreign map[procKey]bool
}

func (r *run) run(ctx context.Context, path string, argv, env []string) (*Result, error) {
	start := time.Now()
	files, err := r.setupFiles()
	if err != nil {
		r.closeAfterStart()
		return nil, &StartError{"setup", err}
	}

	sigs := r.cfg.signalCh
	if len(r.cfg.signals) > 0 {
		ch := make(chan os.Signal, 8)
		signal.Notify(ch, r.cfg.signals...)
		defer signal.Stop(ch)
		sigs = ch
	}

	r.tty = foregroundTTY(files)
	started := make(chan error, 1)
	exited := make(chan unix.WaitStatus, 1)
	go r.startAndWait(path, argv, env, files, started, exited)
	err = <-started
	r.closeAfterStart()
	if err != nil {
		return nil, &StartError{"start " + path, err}
	}
	if !haveReaper {
		if p, err := readStat(r.shellPid); err == nil {
			r.shellStart = p.start
		}
	}

	cp := &copier{wake: waker{-1, -1}, quiet: r.cfg.quiet, maxDrain: r.cfg.maxDrain}
	for _, s := range r.uniqueStreams() {
		cp.streams = append(cp.streams, s)
	}
	copied := make(chan struct{})
	if len(cp.streams) == 0 {
		// Output goes to files, terminals or /dev/null, which the shell
		// got directly: nothing to copy, no waker, no goroutine.
		close(copied)
	} else {
		wake, err := newWaker()
		if err != nil {
			// Without a wake-up the copier could not be told that the
			// shell has exited; stop the shell rather than run it
			// unmanaged.
			r.terminate(0)
			<-exited
			return nil, &StartError{"waker", err}
		}
		defer wake.close()
		cp.wake = wake
		go func() {
			cp.run()
			close(copied)
		}()
	}

	res := &Result{Status: StatusExited}
	var watch <-chan time.Time
	if r.runID != "" {
		t := time.NewTimer(WatchdogDelay)
		defer t.Stop()
		watch = t.C
	}
	var wd *watchdogHandle
	defer func() { wd.done() }()
	var timeout <-chan time.Time
	if r.cfg.timeout > 0 {
		t := time.NewTimer(r.cfg.timeout)
		defer t.Stop()
		timeout = t.C
	}
	done := ctx.Done()
	var ws unix.WaitStatus
wait:
	for {
		select {
		case ws = <-exited:
			break wait
		case <-watch:
			watch = nil
			wd = r.startWatchdog(r.runID)
		case sig := <-sigs:
			if s, ok := sig.(syscall.Signal); ok {
				r.signalGroup(s)
			}
		case <-timeout:
			timeout, done = nil, nil
			res.Status = StatusTimeout
			res.Stopped = r.stopAll()
			res.Message = fmt.Sprintf("timed out after %v; %s", r.cfg.timeout, describeStopped(res.Stopped))
		case <-done:
			timeout, done = nil, nil
			res.Status = StatusKilled
			res.Stopped = r.stopAll()
			res.Message = fmt.Sprintf("%v; %s", context.Cause(ctx), describeStopped(res.Stopped))
		}
	}

	if cp.wake.w >= 0 {
		cp.wake.wake()
	}
	<-copied

	switch {
	case res.Status == StatusTimeout:
		res.ExitCode = ExitTimeout
	case ws.Signaled():
		res.Status = StatusKilled
		res.Signal = ws.Signal()
		res.ExitCode = 128 + int(ws.Signal())
	default:
		res.ExitCode = ws.ExitStatus()
	}

	found := r.findLeftovers()
	if len(r.direct) > 0 {
		found = r.stopDirectHolders(ctx, found, res)
	}
	if len(found) > 0 {
		set := &LeftoverSet{Procs: found, r: r}
		if err := r.cfg.leftovers.Handle(ctx, set); err != nil {
			res.Message = strings.TrimPrefix(res.Message+"; ", "; ") + "leftovers: " + err.Error()
		}
		holders := false
		for _, l := range set.Procs {
			res.Leftovers = append(res.Leftovers, *l)
			holders = holders || l.HoldsOutput && l.Action != "terminated" && l.Action != "killed" && l.Action != "exited"
		}
		if !holders {
			// Every holder is gone: deliver what they wrote before
			// they were stopped. (A policy that handed the pipes to
			// someone else may have made them blocking again.)
			for _, s := range cp.streams {
				if s.r >= 0 {
					unix.SetNonblock(s.r, true)
				}
			}
			cp.drain(time.Now().Add(r.cfg.maxDrain))
		}
	}
	reapOrphans()
	res.Duration = time.Since(start)
	return res, nil
}

// stopDirectHolders stops the leftovers that hold the caller's own pipe
// (WithDirectOutput): nothing else gives the caller its EOF. They are
// reported in res with what was done; the others are returned for the
// leftover policy.
func (r *run) stopDirectHolders(ctx context.Context, found []*Leftover, res *Result) []*Leftover {
	var holders, rest []*Leftover
	for _, l := range found {
		if l.HoldsOutput && l.Descendant {
			holders = append(holders, l)
		} else {
			rest = append(rest, l)
		}
	}
	if len(holders) == 0 {
		return found
	}
	KillLeftovers.Handle(ctx, &LeftoverSet{Procs: holders, r: r})
	for _, l := range holders {
		res.Leftovers = append(res.Leftovers, *l)
	}
	return rest
}

// shellSysProcAttr: the shell leads a process group of its own, is the
// terminal's foreground when the caller was, and (where the platform has
// it) dies with the caller.
func (r *run) shellSysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Foreground: r.tty >= 0, Ctty: r.tty}
	setPdeathsig(a, syscall.SIGKILL)
	return a
}

// startAndWait starts the shell and waits for it, on one locked OS thread.
// Pdeathsig is delivered when the thread that forked the child exits, not
// when the process does (golang/go#27505): if the goroutine were free to
// move, the runtime could retire that thread and SIGKILL a healthy shell.
// Holding the thread until the shell is reaped makes Pdeathsig mean "the
// caller died". The platform's awaitShell notices the exit; the shell is
// reaped under r.mu, so that its group is never signalled after its id may
// have been recycled.
func (r *run) startAndWait(path string, argv, env []string, files []uintptr, started chan<- error, exited chan<- unix.WaitStatus) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Dir: r.cfg.dir, Env: env, Files: files, Sys: r.shellSysProcAttr()})
	if err != nil {
		started <- err
		return
	}
	r.shellPid = pid
	started <- nil
	awaitShell(pid)
	exited <- r.reapShell(pid)
}

// reapShell reaps the shell, which has exited, under r.mu, so that the
// group is never signalled after its id may have been recycled.
func (r *run) reapShell(pid int) unix.WaitStatus {
	var ws unix.WaitStatus
	r.mu.Lock()
	for {
		_, err := unix.Wait4(pid, &ws, 0, nil)
		if err != unix.EINTR {
			break
		}
	}
	r.shellReaped = true
	r.mu.Unlock()
	if r.tty >= 0 {
		takeTerminalBack(r.tty)
	}
	return ws
}

// reapOrphans collects every exited child without blocking. It is only
// called once the shell is reaped, so it cannot steal the shell's status.
func reapOrphans() {
	for {
		pid, err := unix.Wait4(-1, nil, unix.WNOHANG, nil)
		if err == unix.EINTR {
			continue
		}
		if pid <= 0 || err != nil {
			return
		}
	}
}

// signalGroup signals the shell's process group while it is safe to, and
// reports whether it did.
func (r *run) signalGroup(sig syscall.Signal) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.shellReaped && r.shellPid > 0 && unix.Kill(-r.shellPid, sig) == nil
}

func (r *run) shellGone() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.shellReaped
}

// setupFiles prepares the shell's fds 0, 1 and 2.
func (r *run) setupFiles() ([]uintptr, error) {
	stdin, err := r.stdinFD()
	if err != nil {
		return nil, err
	}
	files := []uintptr{uintptr(stdin), 0, 0}
	same := r.cfg.stdout != nil && sameDestination(r.cfg.stdout, r.cfg.stderr)
	for fd, w := range []io.Writer{1: r.cfg.stdout, 2: r.cfg.stderr} {
		if fd == 0 {
			continue
		}
		if fd == 2 && same {
			r.streams[2] = r.streams[1]
			files[2] = files[1]
			continue
		}
		child, err := r.outputFD(fd, w)
		if err != nil {
			return nil, err
		}
		files[fd] = uintptr(child)
	}
	return files, nil
}

func (r *run) stdinFD() (int, error) {
	in := r.cfg.stdin
	if r.cfg.nonInteractive {
		in = nil
	}
	switch in := in.(type) {
	case nil:
		return r.devNull(unix.O_RDONLY)
	case *os.File:
		return int(in.Fd()), nil
	default:
		var p [2]int
		if err := pipeCloexec(p[:]); err != nil {
			return 0, err
		}
		r.closers = append(r.closers, p[0])
		w := os.NewFile(uintptr(p[1]), "stdin")
		go func() {
			io.Copy(w, in)
			w.Close()
		}()
		return p[0], nil
	}
}

// outputFD returns the descriptor the shell gets as fd n for destination w,
// creating the pipe and its stream when one is needed.
func (r *run) outputFD(n int, w io.Writer) (int, error) {
	if w == nil {
		return r.devNull(unix.O_WRONLY)
	}
	s := &stream{dstFD: -1, w: w}
	if f, ok := w.(*os.File); ok {
		fd := int(f.Fd())
		if !waitsForEOF(fd) {
			return fd, nil
		}
		if ino := pipeInode(fd); r.cfg.directOutput && ino != 0 {
			r.direct = append(r.direct, ino) // see WithDirectOutput
			return fd, nil
		}
		s.dstFD = fd
		s.batch = growPipe(fd) >= batchBytes
	}
	var p [2]int
	if err := pipeCloexec(p[:]); err != nil {
		return 0, err
	}
	if err := unix.SetNonblock(p[0], true); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return 0, err
	}
	// A larger buffer means fewer wake-ups of the shell and of the copier
	// per megabyte; refused (EPERM) past the per-user pipe budget, which
	// only costs speed.
	setPipeSize(p[0])
	s.r = p[0]
	s.ino = pipeInode(p[0])
	r.streams[n] = s
	r.closers = append(r.closers, p[1])
	return p[1], nil
}

func (r *run) devNull(mode int) (int, error) {
	fd, err := unix.Open("/dev/null", mode|unix.O_CLOEXEC, 0)
	if err == nil {
		r.closers = append(r.closers, fd)
	}
	return fd, err
}

// closeAfterStart closes the parent's copies of the shell's ends, so that
// EOF on the output pipes means every writer is gone.
func (r *run) closeAfterStart() {
	for _, fd := range r.closers {
		unix.Close(fd)
	}
	r.closers = nil
}

func (r *run) uniqueStreams() []*stream {
	var out []*stream
	for _, s := range r.streams[1:] {
		if s != nil && (len(out) == 0 || out[0] != s) {
			out = append(out, s)
		}
	}
	return out
}

// release closes everything the run still holds. Only then do leftovers
// that kept a pipe see EPIPE.
func (r *run) release() {
	for _, s := range r.uniqueStreams() {
		if s.r >= 0 {
			unix.Close(s.r)
			s.r = -1
		}
	}
	for _, h := range r.handles {
		h.close()
	}
}

// sameDestination reports whether stdout and stderr lead to the same place:
// the same writer, or files on the same open object (`cmd >out 2>&1`). Then
// one pipe serves both, and bytes keep the order in which the shell wrote
// them across the two streams.
func sameDestination(a, b io.Writer) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	var sa, sb unix.Stat_t
	if unix.Fstat(int(fa.Fd()), &sa) != nil || unix.Fstat(int(fb.Fd()), &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// waitsForEOF reports whether fd is a pipe or a socket: the kinds of
// destination whose reader waits for EOF, and so hangs while any process
// holds the other end. Only those go through a pipe owned by Run. A regular
// file, a terminal or /dev/null is handed to the shell as is: nobody waits on
// it, the shell keeps its exact semantics (O_APPEND, seeking, isatty), and no
// byte has to be copied.
func waitsForEOF(fd int) bool {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return true
	}
	t := st.Mode & unix.S_IFMT
	return t == unix.S_IFIFO || t == unix.S_IFSOCK
}

// findLeftovers lists what is still there now that the shell is gone: live
// descendants, and holders of an output pipe that has not reached EOF (a
// pipe at EOF has no writer left anywhere, so only the others are searched
// for, machine-wide).
func (r *run) findLeftovers() []*Leftover {
	if !mayHaveLeftovers() {
		// Orphans come to us, so no child means no descendant; and a pipe
		// held by a non-descendant is rare enough to be searched for only
		// when a stream has not reached EOF.
		if r.allAtEOF() {
			return nil
		}
	}
	inodes := append([]uint64(nil), r.direct...)
	for _, s := range r.uniqueStreams() {
		if s.open() && s.ino != 0 {
			inodes = append(inodes, s.ino)
		}
	}
	var out []*Leftover
	seen := map[int]bool{}
	for _, p := range r.runProcs() {
		if p.dead() {
			continue
		}
		seen[p.pid] = true
		out = append(out, &Leftover{PID: p.pid, Command: cmdline(p), HoldsOutput: holdsPipe(p.pid, inodes), Descendant: true, info: p})
	}
	if len(inodes) > 0 && haveHolderScan {
		for _, p := range allProcs() {
			if seen[p.pid] || p.pid == r.self || r.foreign[p.key()] || p.dead() || !holdsPipe(p.pid, inodes) {
				continue
			}
			out = append(out, &Leftover{PID: p.pid, Command: cmdline(p), HoldsOutput: true, info: p})
		}
	}
	return out
}

// pipeSize is the buffer size asked for the output pipes.
const pipeSize = 1 << 20

func (r *run) allAtEOF() bool {
	for _, s := range r.uniqueStreams() {
		if s.open() {
			return false
		}
	}
	return true
}

// foregroundTTY returns the first of fds that is a terminal whose foreground
// process group is the caller's, or -1. The shell runs in a group of its
// own; on such a terminal that group must become the foreground, or the
// first read from the terminal stops the shell with SIGTTIN (and Ctrl-C
// would not reach it), which is a hang for a human at a terminal and for an
// agent tool that runs commands in a pty.
func foregroundTTY(fds []uintptr) int {
	pgrp := unix.Getpgrp()
	for _, fd := range fds {
		if pg, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP); err == nil && pg == pgrp {
			return int(fd)
		}
	}
	return -1
}
