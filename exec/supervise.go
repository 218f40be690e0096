//go:build linux || darwin || freebsd

package exec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// SupervisorArg is the hidden first argument with which a program that
// starts jobs re-executes itself as a job's supervisor. Any program that
// calls Store.Start or Store.Adopt must call MaybeSupervise at the top of
// main (the shexec command does).
const SupervisorArg = "__shexec_supervise"

// supervisorExe is the program re-executed as the supervisor.
var supervisorExe = os.Executable

// MaybeSupervise runs the job supervisor and exits when the process was
// started as one (os.Args[1] == SupervisorArg); otherwise it returns at
// once.
func MaybeSupervise() {
	if len(os.Args) >= 2 && os.Args[1] == SupervisorArg {
		os.Exit(superviseMain())
	}
}

// The supervisor gets its orders on fd 3 and answers on fd 4. Orders travel
// through a pipe rather than a file so that the job's environment (which may
// hold secrets) never touches the disk. For an adopted job, fds 5 and 6 are
// the read ends of the pipes the adopted processes write to, and fd 7 the
// write end of the pipe they read as stdin.
const (
	fdSpec   = 3
	fdResult = 4
	fdOut    = 5
	fdErr    = 6
	fdIn     = 7
)

// superviseSpec is what the supervisor is told to do.
type superviseSpec struct {
	Dir     string   `json:"dir"`
	JobMeta JobMeta  `json:"meta"`
	Env     []string `json:"env"`
	LogCap  int64    `json:"log_cap"`
	// Adopt: track JobMeta.Adopted instead of starting JobMeta.Command.
	Adopt     bool `json:"adopt"`
	HasStdout bool `json:"has_stdout"`
	HasStderr bool `json:"has_stderr"`
	HasStdin  bool `json:"has_stdin,omitempty"`
}

type superviseResult struct {
	Error string `json:"error,omitempty"`
}

func superviseMain() int {
	res := os.NewFile(fdResult, "result")
	report := func(err error) {
		if res == nil {
			return
		}
		r := superviseResult{}
		if err != nil {
			r.Error = err.Error()
		}
		json.NewEncoder(res).Encode(r)
		res.Close()
		res = nil
	}
	var sp superviseSpec
	specf := os.NewFile(fdSpec, "spec")
	err := json.NewDecoder(specf).Decode(&sp)
	specf.Close()
	if err != nil {
		report(fmt.Errorf("supervisor: reading orders: %w", err))
		return 2
	}
	sv := &supervisor{spec: sp, dir: sp.Dir, meta: sp.JobMeta}
	if err := sv.run(report); err != nil {
		report(err)
		fmt.Fprintln(os.Stderr, "supervisor:", err)
		return 1
	}
	return 0
}

type supervisor struct {
	spec superviseSpec
	dir  string
	meta JobMeta

	drains sync.WaitGroup
	logs   []*rotatingLog
	// lastSignal is the last signal the supervisor sent to stop the job
	// (terminate runs in its own goroutine).
	lastSignal atomic.Value
}

// sent is the name of the last signal sent to stop the job, or "".
func (sv *supervisor) sent() string {
	s, _ := sv.lastSignal.Load().(string)
	return s
}

// run does the supervisor's whole life. report is called exactly once when
// the job has started (or failed to), so that Store.Start returns only once
// meta.json is on disk.
func (sv *supervisor) run(report func(error)) error {
	// Orphans of the job (setsid, double forks) re-parent to us rather than
	// to init, so we can reap them, time them out and know when the job is
	// really over. Without a subreaper (macOS) they are found by the job's
	// process group and its JobIDEnv instead (see untilJobGone).
	if err := becomeSubreaper(); err != nil {
		return fmt.Errorf("%s: %w", subreaperOp, err)
	}
	// SIGTERM, SIGINT or SIGHUP to the supervisor stops the job the same
	// way a timeout does, instead of silently orphaning it.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	self, err := procRefOf(os.Getpid())
	if err != nil {
		return err
	}
	sv.meta.Supervisor = self
	sv.meta.BootID = bootID()

	outLog, err := openRotatingLog(filepath.Join(sv.dir, stdoutLog), sv.spec.LogCap)
	if err != nil {
		return err
	}
	errLog, err := openRotatingLog(filepath.Join(sv.dir, stderrLog), sv.spec.LogCap)
	if err != nil {
		return err
	}
	sv.logs = []*rotatingLog{outLog, errLog}

	if sv.spec.Adopt {
		return sv.runAdopted(report, sigs, outLog, errLog)
	}
	return sv.runCommand(report, sigs, outLog, errLog)
}

func (sv *supervisor) drain(r *os.File, w io.Writer) {
	sv.drains.Add(1)
	go func() {
		defer sv.drains.Done()
		io.Copy(w, r)
		r.Close()
	}()
}

// finishDrains waits for the log copies to reach EOF. Once every process of
// the job is gone nobody should hold the write ends, but a process outside
// the tree could have been handed one; it must not keep the supervisor
// alive, so the wait is bounded.
func (sv *supervisor) finishDrains() {
	done := make(chan struct{})
	go func() { sv.drains.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	for _, l := range sv.logs {
		l.Close()
	}
}

func (sv *supervisor) runCommand(report func(error), sigs chan os.Signal, outLog, errLog *rotatingLog) error {
	m := &sv.meta
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return err
	}
	stdin, keeper, ctl, err := sv.openStdin()
	if err != nil {
		return err
	}
	flags := m.Flags
	if len(flags) == 0 {
		flags = []string{"-c"}
	}
	cmd := osexec.Command(m.Shell, append(append(append([]string(nil), flags...), m.Command), m.Args...)...)
	cmd.Dir = m.Cwd
	cmd.Env = append(append([]string(nil), sv.spec.Env...), JobIDEnv+"="+m.ID)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, outW, errW
	// Its own process group, so the group can be signalled as a whole. No
	// Pdeathsig: a job outlives a killed supervisor (it is then "lost" but
	// still killable through its record).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	// From here on all waiting is done by the wait4(-1) loop below; the
	// os.Process handle is never waited on, so it cannot race the loop for
	// the exit status.
	pid := cmd.Process.Pid
	outW.Close()
	errW.Close()
	stdin.Close()
	sv.drain(outR, outLog)
	sv.drain(errR, errLog)

	main, err := procRefOf(pid) // unreaped, so /proc/PID exists even if it already exited
	if err != nil {
		return err
	}
	m.PID, m.PGID, m.StartTime = pid, pid, main.Start
	m.Started = time.Now().UTC()
	if err := writeJSONAtomic(filepath.Join(sv.dir, metaFile), m); err != nil {
		unix.Kill(-pid, unix.SIGKILL)
		return err
	}
	report(nil)

	if ctl != nil {
		go sv.serveCtl(ctl, keeper)
	}

	mainExit := make(chan unix.WaitStatus, 1)
	noChildren := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		for {
			var ws unix.WaitStatus
			p, err := unix.Wait4(-1, &ws, 0, nil)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil { // ECHILD: no child left, hence no descendant either
				close(noChildren)
				return
			}
			if p == pid {
				mainExit <- ws
			}
		}
	}()

	// allGone closes when no process of the job is left: with a
	// subreaper, when the last child is reaped.
	var allGone <-chan struct{} = noChildren
	if !haveReaper {
		allGone = sv.untilJobGone(noChildren)
	}

	var timeout <-chan time.Time
	if m.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(m.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	grace := time.Duration(m.GraceMS) * time.Millisecond
	var ws *unix.WaitStatus
	timedOut, stopping := false, false
	var note string
loop:
	for {
		select {
		case w := <-mainExit:
			ws = &w
		case <-allGone:
			break loop
		case <-timeout:
			timedOut = true
			note = fmt.Sprintf("timed out after %s", time.Duration(m.TimeoutMS)*time.Millisecond)
			if !stopping {
				stopping = true
				go sv.terminate(grace, allGone)
			}
		case s := <-sigs:
			if !stopping {
				stopping = true
				note = fmt.Sprintf("stopped because the supervisor got %v", s)
				go sv.terminate(grace, allGone)
			}
		}
	}
	if ws == nil { // mainExit and allGone can be ready together
		select {
		case w := <-mainExit:
			ws = &w
		default:
		}
	}
	sv.finishDrains()
	ex := JobExit{Ended: time.Now().UTC(), Note: note}
	switch {
	case ws == nil:
		ex.How, ex.Note = JobLost, "the supervisor never saw the job exit"
	case timedOut:
		ex.How = JobTimedOut
	case ws.Signaled() || stopping:
		ex.How = JobKilled
	default:
		ex.How = JobExited
	}
	if ws != nil {
		code := ws.ExitStatus()
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
			ex.Signal = unix.SignalName(ws.Signal())
		}
		ex.ExitCode = &code
	}
	stopped(sv.dir, &ex, sv.sent())
	sv.removeFIFOs()
	return writeJSONAtomic(filepath.Join(sv.dir, statusFile), ex)
}

// openStdin gives the job its stdin. With Stdin "pipe" that is the read end
// of a FIFO in the job directory, so `shexec write` from any process can feed
// the job. The supervisor holds a write end (the keeper) so that the job does
// not see EOF between writers; closing the keeper, on an "eof" line on the
// ctl FIFO, is what ends the job's input.
func (sv *supervisor) openStdin() (stdin, keeper, ctl *os.File, err error) {
	if sv.meta.Stdin != "pipe" {
		f, err := os.Open(os.DevNull)
		return f, nil, nil, err
	}
	in := filepath.Join(sv.dir, stdinFIFO)
	cp := filepath.Join(sv.dir, ctlFIFO)
	for _, p := range []string{in, cp} {
		if err := unix.Mkfifo(p, 0o600); err != nil {
			return nil, nil, nil, fmt.Errorf("mkfifo %s: %w", p, err)
		}
	}
	// Opening the read end non-blocking succeeds without a writer; the flag
	// is then cleared because the job expects an ordinary blocking stdin.
	rfd, err := unix.Open(in, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := unix.SetNonblock(rfd, false); err != nil {
		return nil, nil, nil, err
	}
	stdin = os.NewFile(uintptr(rfd), in)
	if keeper, err = os.OpenFile(in, os.O_WRONLY, 0); err != nil {
		return nil, nil, nil, err
	}
	// O_RDWR: the supervisor is its own writer, so reads never see EOF
	// when a `shexec write --eof` closes its end.
	if ctl, err = os.OpenFile(cp, os.O_RDWR, 0); err != nil {
		return nil, nil, nil, err
	}
	return stdin, keeper, ctl, nil
}

func (sv *supervisor) serveCtl(ctl, keeper *os.File) {
	sc := bufio.NewScanner(ctl)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "eof" && keeper != nil {
			keeper.Close()
			keeper = nil
		}
	}
}

func (sv *supervisor) removeFIFOs() {
	os.Remove(filepath.Join(sv.dir, stdinFIFO))
	os.Remove(filepath.Join(sv.dir, ctlFIFO))
}

// terminate stops every process below the supervisor: SIGTERM to the job's
// group and to each descendant (escapees that left the group are still
// descendants, because the supervisor is their subreaper), then, after the
// grace period, SIGKILL until none is left. done closes when the last child
// has been reaped.
func (sv *supervisor) terminate(grace time.Duration, done <-chan struct{}) {
	me := os.Getpid()
	signalTree := func(sig unix.Signal) {
		sv.lastSignal.Store(unix.SignalName(sig))
		if sv.meta.PGID > 0 {
			unix.Kill(-sv.meta.PGID, sig)
		}
		for _, r := range descendantsIn(snapshotProcs(), me) {
			signalExact(r, sig)
		}
		if !haveReaper {
			for _, r := range sv.jobProcs() {
				signalExact(r, sig)
			}
		}
	}
	signalTree(unix.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(grace):
	}
	for {
		signalTree(unix.SIGKILL)
		select {
		case <-done:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// runAdopted tracks processes shexec did not start (leftovers of a
// foreground run). The supervisor cannot become their parent, so it cannot
// reap them or learn their exit status; it polls /proc for them (and for the
// children they start later), drains the output pipes they were writing to
// so they neither block nor die of SIGPIPE, enforces the timeout, and
// records the end once none is left.
func (sv *supervisor) runAdopted(report func(error), sigs chan os.Signal, outLog, errLog *rotatingLog) error {
	m := &sv.meta
	if sv.spec.HasStdout {
		sv.drain(os.NewFile(fdOut, "stdout"), outLog)
	}
	if sv.spec.HasStderr {
		sv.drain(os.NewFile(fdErr, "stderr"), errLog)
	}
	if sv.spec.HasStdin {
		if err := sv.feedStdin(os.NewFile(fdIn, "stdin")); err != nil {
			return err
		}
		m.Stdin = string(JobStdinPipe)
	}
	tracked := map[ProcRef]bool{}
	for _, r := range m.Adopted {
		if refAlive(r) {
			tracked[r] = true
		}
	}
	if m.Marked {
		// Escapees of a marked job may have left the adopted processes'
		// tree (re-parented to the caller, which was their subreaper)
		// between the caller's last look and now.
		for _, r := range sv.jobProcs() {
			tracked[r] = true
		}
	}
	m.Started = time.Now().UTC()
	if err := writeJSONAtomic(filepath.Join(sv.dir, metaFile), m); err != nil {
		return err
	}
	report(nil)

	var timeout <-chan time.Time
	if m.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(m.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	grace := time.Duration(m.GraceMS) * time.Millisecond
	var termAt, killAt time.Time
	var note string
	how := JobExited
	// Adopted processes are not our children, so the kernel sends us no
	// SIGCHLD; exits are learnt from pidfds (see watchExit) and new
	// children from /proc scans. A scan costs a walk of the whole process
	// table, so scans back off while nothing changes: a long-running
	// adopted server would otherwise cost a few percent of a CPU forever.
	// Timeouts and signals wake the loop at once; after any change, and
	// while stopping the processes (the SIGKILL after the grace must not
	// wait for a slow scan), scans are fast again.
	exits := make(chan struct{}, 1)
	for r := range tracked {
		watchExit(r, exits)
	}
	interval := adoptScanFast
	scan := time.NewTimer(interval)
	defer scan.Stop()
	for len(tracked) > 0 {
		select {
		case <-scan.C:
		case <-exits:
		case <-timeout:
			how, note = JobTimedOut, fmt.Sprintf("timed out after %s", time.Duration(m.TimeoutMS)*time.Millisecond)
			termAt = time.Now()
		case s := <-sigs:
			if termAt.IsZero() {
				how, note = JobKilled, fmt.Sprintf("stopped because the supervisor got %v", s)
				termAt = time.Now()
			}
		}
		changed := false
		procs := snapshotProcs()
		roots := make([]int, 0, len(tracked))
		for r := range tracked {
			if st, ok := procs[r.PID]; !ok || st.Start != r.Start || !st.alive() {
				delete(tracked, r)
				changed = true
				continue
			}
			roots = append(roots, r.PID)
		}
		found := descendantsIn(procs, roots...)
		if m.Marked {
			// What carries the job's marker or is in its group, with
			// what lies below: orphans of the job are re-parented to
			// the process that started it (its subreaper), not to us.
			found = append(found, sv.jobProcs()...)
		}
		for _, r := range found {
			if !tracked[r] {
				tracked[r] = true
				changed = true
				watchExit(r, exits)
			}
		}
		switch {
		case termAt.IsZero():
		case killAt.IsZero():
			killAt = termAt.Add(grace)
			timeout = nil
			for r := range tracked {
				signalExact(r, unix.SIGTERM)
			}
		case time.Now().After(killAt):
			for r := range tracked {
				signalExact(r, unix.SIGKILL)
			}
		}
		if changed || !termAt.IsZero() {
			interval = adoptScanFast
		} else {
			interval = min(2*interval, adoptScanSlow)
		}
		scan.Reset(interval)
	}
	sv.finishDrains()
	ex := JobExit{How: how, Ended: time.Now().UTC(), Note: note}
	reported := false
	if m.ExitReporter.PID > 0 {
		if e, ok := sv.reportedExit(); ok {
			reported = true
			code := e.ExitCode
			ex.ExitCode = &code
			if e.Signal != "" {
				ex.Signal = e.Signal
				if ex.How == JobExited {
					ex.How = JobKilled
				}
			}
		}
	}
	last := ""
	switch {
	case !killAt.IsZero() && time.Now().After(killAt):
		last = "SIGKILL"
	case !termAt.IsZero():
		last = "SIGTERM"
	}
	stopped(sv.dir, &ex, last)
	sv.removeFIFOs()
	if ex.Note == "" && !reported {
		if m.ExitReporter.PID > 0 {
			ex.Note = "the shell's exit status is unknown: the process that started it ended before it"
		} else {
			ex.Note = "adopted processes are not shexec's children; their exit status is unknown"
		}
	}
	return writeJSONAtomic(filepath.Join(sv.dir, statusFile), ex)
}

// ShellExit is exit.json: how a handed-over job's main process ended, as
// its parent (the ExitReporter) saw when it reaped it.
type shellExit struct {
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
}

func shellExitOf(ws unix.WaitStatus) shellExit {
	if ws.Signaled() {
		return shellExit{ExitCode: 128 + int(ws.Signal()), Signal: unix.SignalName(ws.Signal())}
	}
	return shellExit{ExitCode: ws.ExitStatus()}
}

// exitReportWait bounds how long the tracker of a handed-over job waits,
// once every process is gone, for the parent of the main process to record
// its exit status: the parent reaps at once, so this is only reached when
// it has stopped reaping (it is ending).
const exitReportWait = 2 * time.Second

// reportedExit reads exit.json, waiting for it while the reporter lives.
func (sv *supervisor) reportedExit() (shellExit, bool) {
	var e shellExit
	path := filepath.Join(sv.dir, exitFile)
	deadline := time.Now().Add(exitReportWait)
	for {
		if readJSON(path, &e) == nil {
			return e, true
		}
		if !refAlive(sv.meta.ExitReporter) || time.Now().After(deadline) {
			return e, readJSON(path, &e) == nil
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// feedStdin gives an adopted job a stdin that Store.Write can feed: the
// job's stdin FIFO, copied into w (the write end of the pipe the adopted
// processes read), until an "eof" line on the ctl FIFO, after which what
// the FIFO still holds is copied and w closed. Both FIFOs are opened
// read-write, so that a writer closing its end is no EOF.
func (sv *supervisor) feedStdin(w *os.File) error {
	in := filepath.Join(sv.dir, stdinFIFO)
	cp := filepath.Join(sv.dir, ctlFIFO)
	for _, p := range []string{in, cp} {
		if err := unix.Mkfifo(p, 0o600); err != nil {
			return fmt.Errorf("mkfifo %s: %w", p, err)
		}
	}
	rfd, err := unix.Open(in, unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	cfd, err := unix.Open(cp, unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(rfd)
		return err
	}
	wfd := int(w.Fd()) // blocking: the job reads at its own pace
	go func() {
		defer func() {
			unix.Close(rfd)
			unix.Close(cfd)
			w.Close()
		}()
		buf := make([]byte, 32<<10)
		// copyAll moves what the FIFO holds now; false once nobody
		// reads w any more.
		copyAll := func() bool {
			for {
				n, err := unix.Read(rfd, buf)
				if n <= 0 || err != nil {
					return true
				}
				if _, err := unix.Write(wfd, buf[:n]); err != nil {
					return false
				}
			}
		}
		var ctl []byte
		fds := []unix.PollFd{{Fd: int32(rfd), Events: unix.POLLIN}, {Fd: int32(cfd), Events: unix.POLLIN}}
		for {
			if _, err := unix.Poll(fds, -1); err != nil {
				if err == unix.EINTR {
					continue
				}
				return
			}
			if fds[0].Revents&unix.POLLIN != 0 && !copyAll() {
				return
			}
			if fds[1].Revents&unix.POLLIN != 0 {
				n, _ := unix.Read(cfd, buf)
				if n > 0 {
					ctl = append(ctl, buf[:n]...)
				}
				for _, line := range strings.Split(string(ctl), "\n") {
					if strings.TrimSpace(line) == "eof" {
						copyAll() // written before the eof
						return
					}
				}
				if i := strings.LastIndexByte(string(ctl), '\n'); i >= 0 {
					ctl = ctl[i+1:]
				}
			}
		}
	}()
	return nil
}

// The adopt tracker's /proc scan interval: adoptScanFast after a change and
// while stopping the job, doubling up to adoptScanSlow while nothing
// happens. The slow bound is how late a new child of an adopted process can
// be noticed (a child whose parent exits before that is re-parented away
// and escapes the tracker, though not `shexec kill`, which also searches
// the process group).
const (
	adoptScanFast = 50 * time.Millisecond
	adoptScanSlow = time.Second
)

// jobProcs finds the job's live processes as Store.Kill does: its group,
// its JobIDEnv, what lies below them, and the supervisor's own subtree.
func (sv *supervisor) jobProcs() []ProcRef {
	return (&Store{}).jobProcs(&Job{JobMeta: sv.meta, Dir: sv.dir})
}

// untilJobGone returns a channel closed once the job's shell and every
// process of the job are gone, for platforms without a subreaper (macOS):
// there the job's escapees re-parent to init, so the supervisor running out
// of children (noChildren) only means the shell is gone. It then polls the
// job's processes (jobProcs) every adoptScanFast.
func (sv *supervisor) untilJobGone(noChildren <-chan struct{}) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		<-noChildren
		for len(sv.jobProcs()) > 0 {
			time.Sleep(adoptScanFast)
		}
		close(gone)
	}()
	return gone
}
