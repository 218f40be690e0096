//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A Spawner runs shell commands from a long-lived program that serves
// several at once (the MCP server): each command starts in the caller's own
// process, which reads its output and reaps it, and only a command still
// running when its caller stops waiting (Proc.Wait's yield, or background
// work its shell left) becomes a managed job, handed over to a supervisor
// that adopts the running processes. A quick command so costs one process
// (the shell) and no file; Store.Start costs two (a supervisor, then the
// shell) and a job record.
//
// The caller becomes a child subreaper where the platform has one, so that
// what a command's processes orphan comes back to it; the Spawner reaps
// those (see reaper). Commands are told apart by their process group and by
// the job id each carries in its environment (JobIDEnv) from its start.
// While a Spawner is open it reaps every child of the process: the program
// must not call Run, or start and wait for children of its own, meanwhile.
type Spawner struct {
	store  *Store
	linger time.Duration

	mu           sync.Mutex
	active       map[*Proc]bool
	jobs         []string
	closed       bool
	closedReaper bool
	shells       map[string]string
}

// DefaultLinger is how long Proc.Wait still waits, once the shell has
// exited, for what it left behind to end and its output to be complete: long
// enough for a short background step (`sleep 0.1 &`) to end and the run to
// return a plain exit, short enough that `server &` does not cost the caller
// its whole yield.
const DefaultLinger = 250 * time.Millisecond

// spoolMem bounds the output of one stream a Proc keeps in memory for the
// job it may become; beyond it the output goes to the job's logs on disk
// (the job's directory is then made early).
const spoolMem = 512 << 10

// NewSpawner makes the caller a subreaper (where there is one) and starts
// reaping its children. Close it when done.
func NewSpawner(st *Store) (*Spawner, error) {
	if err := becomeSubreaper(); err != nil {
		return nil, &StartError{subreaperOp, err}
	}
	reaperOpen()
	return &Spawner{store: st, linger: DefaultLinger, active: map[*Proc]bool{}, shells: map[string]string{}}, nil
}

// SetLinger sets how long Wait waits after the shell's exit (DefaultLinger).
func (sp *Spawner) SetLinger(d time.Duration) { sp.linger = d }

// Jobs lists the ids of the jobs this Spawner's commands became, in order.
func (sp *Spawner) Jobs() []string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return append([]string(nil), sp.jobs...)
}

// StopActive stops every command still in its caller's foreground (their
// Wait returns JobKilled, "the session ended") and waits for them; commands
// started afterwards are refused. Jobs are left to the caller (Store.Kill
// each of Jobs()).
func (sp *Spawner) StopActive() {
	sp.mu.Lock()
	sp.closed = true
	var procs []*Proc
	for p := range sp.active {
		procs = append(procs, p)
	}
	sp.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.cancel(errors.New("the session ended"))
			select {
			case <-p.waited:
			case <-time.After(killPatience + 5*time.Second):
			}
		}()
	}
	wg.Wait()
}

// Close ends the Spawner: commands can no longer be started, and once no
// Spawner of the program is open only the children still registered (the
// shells of jobs kept running) are reaped.
func (sp *Spawner) Close() {
	sp.mu.Lock()
	done := sp.closedReaper
	sp.closed, sp.closedReaper = true, true
	sp.mu.Unlock()
	if !done {
		reaperClose()
	}
}

// StopOrphans stops, where orphans come to the caller (a subreaper), every
// process below it that is no registered child's: what the commands
// orphaned and no job or other search holds (a setsid daemon that also
// scrubbed its environment). Call it after the jobs have been stopped, and
// not when they are kept: their escapees are orphans of the caller too.
func (sp *Spawner) StopOrphans() {
	if haveReaper {
		sp.stopOrphans()
	}
}

// stopOrphans stops the unregistered children of the caller and what lies
// below them: SIGTERM, a grace, SIGKILL.
func (sp *Spawner) stopOrphans() {
	find := func() []ProcRef {
		procs := snapshotProcs()
		var roots []int
		for _, pid := range reaperUnknown() {
			if st, ok := procs[pid]; ok && st.alive() {
				roots = append(roots, pid)
			}
		}
		out := descendantsIn(procs, roots...)
		for _, pid := range roots {
			out = append(out, ProcRef{PID: pid, Start: procs[pid].Start})
		}
		return out
	}
	stopRefs(find, DefaultJobGrace, nil)
}

// SpawnSpec is a command for Spawner.Start: JobSpec's fields (Flags and
// Args, Origin and LogCap included; Stdin JobStdinPipe keeps the command's
// stdin open, so that once it is a job Store.Write feeds it), plus:
type SpawnSpec struct {
	JobSpec
	// Input is written to the command's stdin first; then stdin is closed,
	// unless Stdin is JobStdinPipe.
	Input []byte
	// Output receives stdout and stderr, in the order read. It is called
	// from the reading goroutines, one call at a time, until Wait returns.
	Output io.Writer
}

// A Proc is a command started by a Spawner: in its caller's foreground
// until Wait returns.
type Proc struct {
	// PID is the shell's pid; it leads the command's process group.
	PID int

	sp        *Spawner
	spec      SpawnSpec
	shell     string
	dir       string
	marker    string // JobIDEnv's value in the command's environment
	id        string // the job id it goes on as: marker, unless taken (guarded by mu)
	start     time.Time
	startTick uint64 // the shell's start time (ProcRef.Start)
	exited    chan struct{}
	waited    chan struct{}
	stopCh    chan struct{}
	stopWhy   error
	stopOnce  sync.Once
	stdin     *os.File // write end kept for the job (Stdin JobStdinPipe)

	mu      sync.Mutex
	ws      unix.WaitStatus
	reaped  bool
	handed  bool   // a job now: exit.json goes to jobDir
	jobDir  string // made when the output spilled to disk, or at hand-over
	exitOut bool   // exit.json written
	streams [2]*procStream
}

// procStream is one of the command's output pipes as the Proc reads it.
type procStream struct {
	name   string // stdoutLog or stderrLog
	f      *os.File
	mem    []byte // output not yet in the job's log (up to spoolMem)
	log    *rotatingLog
	eof    chan struct{} // closed at EOF
	done   chan struct{} // closed when the reading goroutine returns
	atEOF  bool
	paused bool
}

var readBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Start starts a command. It returns once the shell runs.
func (sp *Spawner) Start(spec SpawnSpec) (*Proc, error) {
	if spec.Command == "" {
		return nil, errors.New("empty command")
	}
	sp.mu.Lock()
	closed := sp.closed
	sp.mu.Unlock()
	if closed {
		return nil, errors.New("spawner closed")
	}
	shell, err := sp.lookShell(spec.Shell)
	if err != nil {
		return nil, &StartError{"shell", err}
	}
	dir := spec.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, &StartError{"getwd", err}
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, &StartError{"dir", err}
	}
	if spec.Stdin == "" {
		spec.Stdin = JobStdinNull
	}
	if spec.Stdin != JobStdinNull && spec.Stdin != JobStdinPipe {
		return nil, fmt.Errorf("unknown stdin mode %q", spec.Stdin)
	}
	id, err := newJobID()
	if err != nil {
		return nil, &StartError{"job id", err}
	}
	env := spec.Env
	if env == nil {
		env = os.Environ()
	}
	env = mergeEnv(env, []string{JobIDEnv + "=" + id})

	p := &Proc{
		id: id, sp: sp, spec: spec, shell: shell, dir: dir, marker: id, start: time.Now(),
		exited: make(chan struct{}), waited: make(chan struct{}), stopCh: make(chan struct{}),
	}
	var closeAfter []int
	defer func() {
		for _, fd := range closeAfter {
			unix.Close(fd)
		}
	}()
	var fds [3]int
	var readEnds [2]int
	for i := range readEnds {
		var pp [2]int
		if err := pipeCloexec(pp[:]); err != nil {
			for _, fd := range readEnds[:i] {
				unix.Close(fd)
			}
			return nil, &StartError{"pipe", err}
		}
		readEnds[i], fds[i+1] = pp[0], pp[1]
		closeAfter = append(closeAfter, pp[1])
	}
	var inW int = -1
	if spec.Stdin == JobStdinPipe || len(spec.Input) > 0 {
		var pp [2]int
		if err := pipeCloexec(pp[:]); err != nil {
			unix.Close(readEnds[0])
			unix.Close(readEnds[1])
			return nil, &StartError{"pipe", err}
		}
		fds[0], inW = pp[0], pp[1]
		closeAfter = append(closeAfter, pp[0])
	} else {
		null, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			unix.Close(readEnds[0])
			unix.Close(readEnds[1])
			return nil, &StartError{"stdin", err}
		}
		fds[0] = null
		closeAfter = append(closeAfter, null)
	}
	flags := spec.Flags
	if len(flags) == 0 {
		flags = []string{"-c"}
	}
	argv := append(append(append([]string{filepath.Base(shell)}, flags...), spec.Command), spec.Args...)
	if spec.Shell != "" {
		argv[0] = spec.Shell
	}
	pid, err := reaperFork(func() (int, error) {
		pid, err := syscall.ForkExec(shell, argv, &syscall.ProcAttr{
			Dir: dir, Env: env, Files: []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2])},
			// Its own process group, so that it can be signalled as a
			// whole. No Pdeathsig: a command handed over to a job goes on
			// when the caller ends (the caller's session end stops it,
			// unless the caller keeps its jobs).
			Sys: &syscall.SysProcAttr{Setpgid: true},
		})
		if err == nil {
			// Unreaped (the reaper waits for our lock), so its start
			// time can still be read.
			if st, err := readStat(pid); err == nil {
				p.startTick = st.start
			}
		}
		return pid, err
	}, p.onExit)
	if err != nil {
		unix.Close(readEnds[0])
		unix.Close(readEnds[1])
		if inW >= 0 {
			unix.Close(inW)
		}
		return nil, &StartError{"start " + shell, err}
	}
	p.PID = pid
	for i, name := range []string{stdoutLog, stderrLog} {
		unix.SetNonblock(readEnds[i], true)
		p.streams[i] = &procStream{name: name, f: os.NewFile(uintptr(readEnds[i]), name), eof: make(chan struct{})}
	}
	for _, s := range p.streams { // a reader may spill both streams
		p.startReading(s)
	}
	if inW >= 0 {
		w := os.NewFile(uintptr(inW), "stdin")
		if spec.Stdin == JobStdinPipe {
			// Input goes through a copy of its own, so that the kept end
			// can be handed to a job while Input is still being written.
			if len(spec.Input) > 0 {
				if fd, err := unix.FcntlInt(uintptr(inW), unix.F_DUPFD_CLOEXEC, 0); err == nil {
					go writeInput(os.NewFile(uintptr(fd), "stdin"), spec.Input)
				}
			}
			p.stdin = w
		} else {
			go writeInput(w, spec.Input)
		}
	}
	sp.mu.Lock()
	if sp.closed { // StopActive ran while this one was starting
		p.cancel(errors.New("the session ended"))
	}
	sp.active[p] = true
	sp.mu.Unlock()
	return p, nil
}

func writeInput(w *os.File, data []byte) {
	w.Write(data)
	w.Close()
}

func (sp *Spawner) lookShell(shell string) (string, error) {
	if shell == "" {
		shell = "bash"
	}
	sp.mu.Lock()
	path, ok := sp.shells[shell]
	sp.mu.Unlock()
	if ok {
		return path, nil
	}
	path, err := lookShell(shell)
	if err != nil {
		return "", err
	}
	sp.mu.Lock()
	sp.shells[shell] = path
	sp.mu.Unlock()
	return path, nil
}

func (p *Proc) onExit(ws unix.WaitStatus) {
	p.mu.Lock()
	p.ws, p.reaped = ws, true
	write := p.handed && !p.exitOut
	p.exitOut = p.exitOut || write
	dir := p.jobDir
	p.mu.Unlock()
	if write {
		writeJSONAtomic(filepath.Join(dir, exitFile), shellExitOf(ws))
	}
	close(p.exited)
}

func (p *Proc) startReading(s *procStream) {
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		bp := readBufs.Get().(*[]byte)
		defer readBufs.Put(bp)
		for {
			n, err := s.f.Read(*bp)
			if n > 0 {
				p.deliver(s, (*bp)[:n])
			}
			if err != nil {
				if errors.Is(err, os.ErrDeadlineExceeded) {
					p.mu.Lock()
					paused := s.paused
					p.mu.Unlock()
					if paused {
						return
					}
					continue
				}
				p.mu.Lock()
				s.atEOF = true
				p.mu.Unlock()
				close(s.eof)
				return
			}
		}
	}()
}

// deliver passes output to the caller and keeps it for the job.
func (p *Proc) deliver(s *procStream, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spec.Output != nil {
		p.spec.Output.Write(b)
	}
	if s.log != nil {
		s.log.Write(b)
		return
	}
	s.mem = append(s.mem, b...)
	if len(s.mem) > spoolMem {
		if err := p.spillLocked(); err != nil {
			// No disk for the job's logs: keep the newest spoolMem
			// bytes, memory stays bounded.
			s.mem = append(s.mem[:0], s.mem[len(s.mem)-spoolMem:]...)
		}
	}
}

// spillLocked makes the job's directory and moves the output kept so far
// into its logs; later output goes there directly.
func (p *Proc) spillLocked() error {
	if err := p.makeDirLocked(); err != nil {
		return err
	}
	for _, s := range p.streams {
		if s.log != nil {
			continue
		}
		l, err := openRotatingLog(filepath.Join(p.jobDir, s.name), p.spec.LogCap)
		if err != nil {
			return err
		}
		l.Write(s.mem)
		s.log, s.mem = l, nil
	}
	return nil
}

// makeDirLocked makes the job's directory under the id the command
// carries; if another job took that id meanwhile, under a fresh one (the
// processes then cannot be found by their marker, only by group and
// descent).
func (p *Proc) makeDirLocked() error {
	if p.jobDir != "" {
		return nil
	}
	dir, err := p.sp.store.reserveJobDir(p.id)
	for i := 0; errors.Is(err, fs.ErrExist) && i < 16; i++ {
		var id string
		if id, err = newJobID(); err != nil {
			return err
		}
		p.id = id
		dir, err = p.sp.store.reserveJobDir(id)
	}
	if err != nil {
		return err
	}
	p.jobDir = dir
	return nil
}

// outputDrain bounds how long a command's output is still read once
// nothing of the command is alive (see WithMaxDrain).
const outputDrain = 500 * time.Millisecond

// drain waits up to d for the output to reach EOF, then stops reading.
func (p *Proc) drain(d time.Duration) {
	over := make(chan struct{})
	t := time.AfterFunc(d, func() { close(over) })
	defer t.Stop()
	for _, s := range p.streams {
		select {
		case <-s.eof:
		case <-over:
		}
	}
	p.pauseReaders()
}

// pauseReaders stops the reading goroutines, leaving unread output in the
// pipes.
func (p *Proc) pauseReaders() {
	for _, s := range p.streams {
		p.mu.Lock()
		s.paused = true
		p.mu.Unlock()
		s.f.SetReadDeadline(time.Now())
		<-s.done
	}
}

func (p *Proc) resumeReaders() {
	for _, s := range p.streams {
		p.mu.Lock()
		s.paused = false
		eof := s.atEOF
		p.mu.Unlock()
		if !eof {
			s.f.SetReadDeadline(time.Time{})
			p.startReading(s)
		}
	}
}

// ProcResult is how Wait left a command.
type ProcResult struct {
	// Status is JobExited, JobKilled or JobTimedOut for a command that is
	// over, JobRunning for one that goes on as Job.
	Status JobState
	// ExitCode is the shell's exit status, 128+N when signal N ended it,
	// 124 after a timeout (as Job.WaitCode).
	ExitCode int
	Signal   string
	// Note says why a command was stopped, or why it goes on.
	Note string
	// Job is the job the command goes on as (Status JobRunning).
	Job *Job
	// ShellExited: the shell had exited, the job is what it left running
	// (listed in Leftovers, Action "kept").
	ShellExited bool
	Leftovers   []Leftover
	Duration    time.Duration
}

// Wait waits for the command to end, at most d (d <= 0: no limit). A
// command still running then, or whose shell has exited but left work
// running (DefaultLinger after the exit), is handed over to a job of the
// Spawner's store: a supervisor adopts its processes and takes over its
// output pipes and stdin, the output read so far is put first in the job's
// logs, and this process, still the shell's parent, records the shell's
// exit status for the job when it reaps it. The job's timeout is what is
// left of the command's. If ctx ends first, or the command's timeout
// passes, the command and everything it started is stopped. Wait is called
// once; its output has all gone to Output when it returns.
func (p *Proc) Wait(ctx context.Context, d time.Duration) (*ProcResult, error) {
	defer close(p.waited)
	defer p.forget()
	var yield <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		yield = t.C
	}
	var timeout <-chan time.Time
	if p.spec.Timeout > 0 {
		t := time.NewTimer(p.spec.Timeout - time.Since(p.start))
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case <-p.exited:
			return p.afterShellExit(ctx, yield, timeout)
		case <-yield:
			yield = nil
			if res, err := p.handover(false); res != nil || err != nil {
				return res, err
			}
			// Nothing was alive: the shell is exiting right now.
		case <-timeout:
			return p.stopped(JobTimedOut, fmt.Sprintf("timed out after %v", p.spec.Timeout)), nil
		case <-ctx.Done():
			return p.stopped(JobKilled, context.Cause(ctx).Error()), nil
		case <-p.stopCh:
			return p.stopped(JobKilled, p.stopWhy.Error()), nil
		}
	}
}

func (p *Proc) cancel(why error) {
	p.stopOnce.Do(func() {
		p.stopWhy = why
		close(p.stopCh)
	})
}

func (p *Proc) forget() {
	p.sp.mu.Lock()
	delete(p.sp.active, p)
	p.sp.mu.Unlock()
}

// afterShellExit waits, the shell being reaped, for the output to reach EOF
// and for nothing of the command to be left, for at most the linger; what
// is still running then becomes the job.
func (p *Proc) afterShellExit(ctx context.Context, yield, timeout <-chan time.Time) (*ProcResult, error) {
	linger := time.NewTimer(p.sp.linger)
	defer linger.Stop()
	var poll <-chan time.Time
	for {
		eof := 0
		for _, s := range p.streams {
			select {
			case <-s.eof:
				eof++
			default:
			}
		}
		if eof == len(p.streams) && !p.anyLeft() {
			return p.finish(), nil
		}
		var wake <-chan struct{}
		for _, s := range p.streams {
			select {
			case <-s.eof:
			default:
				if wake == nil {
					wake = s.eof
				}
			}
		}
		if wake == nil { // at EOF, but processes are left: look again soon
			poll = time.After(waitGonePoll)
		}
		select {
		case <-wake:
		case <-poll:
		case <-linger.C:
			if res, err := p.handover(true); res != nil || err != nil {
				return res, err
			}
			// Nothing of the command is alive (any more), but its
			// output has not reached EOF: a process outside it holds a
			// pipe. What was written is delivered; the rest is not
			// waited for.
			p.drain(outputDrain)
			return p.finish(), nil
		case <-yield:
			yield = nil
		case <-timeout:
			return p.stopped(JobTimedOut, fmt.Sprintf("timed out after %v", p.spec.Timeout)), nil
		case <-ctx.Done():
			return p.stopped(JobKilled, context.Cause(ctx).Error()), nil
		case <-p.stopCh:
			return p.stopped(JobKilled, p.stopWhy.Error()), nil
		}
	}
}

// anyLeft reports whether a process of the command is alive, its shell
// having exited. Where orphans come to us, an exited shell's processes are
// all children of ours or below them, so a process without children other
// than the registered ones (the other commands' shells, supervisors) has
// none left: one system call, or one read of our children, instead of a
// walk of the process table.
func (p *Proc) anyLeft() bool {
	if !mayHaveLeftovers() {
		return false
	}
	if haveReaper && haveChildrenFiles() && !reaperUnknownChildren() {
		return false
	}
	return len(p.live()) > 0
}

// live lists the command's live processes: its group, what carries its
// marker, and what lies below them (see Store.jobProcs), the shell first.
func (p *Proc) live() []ProcRef {
	j := &Job{JobMeta: JobMeta{ID: p.marker, PID: p.PID, PGID: p.PID, StartTime: p.startTick, BootID: bootID()}}
	refs := p.sp.store.jobProcs(j)
	sort.Slice(refs, func(a, b int) bool {
		if (refs[a].PID == p.PID) != (refs[b].PID == p.PID) {
			return refs[a].PID == p.PID
		}
		return refs[a].PID < refs[b].PID
	})
	return refs
}

// result is the status of the reaped shell.
func (p *Proc) result() *ProcResult {
	p.mu.Lock()
	ws := p.ws
	p.mu.Unlock()
	e := shellExitOf(ws)
	res := &ProcResult{Status: JobExited, ExitCode: e.ExitCode, Signal: e.Signal, Duration: time.Since(p.start)}
	if e.Signal != "" {
		res.Status = JobKilled
	}
	return res
}

// finish releases what the command held once it is over.
func (p *Proc) finish() *ProcResult {
	res := p.result()
	p.release()
	p.mu.Lock()
	dir := p.jobDir
	p.mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir) // nobody was told its id
	}
	return res
}

func (p *Proc) release() {
	for _, s := range p.streams {
		s.f.Close()
		p.mu.Lock()
		if s.log != nil {
			s.log.Close()
		}
		p.mu.Unlock()
	}
	if p.stdin != nil {
		p.stdin.Close()
	}
}

// stopped stops the command and everything it started (SIGTERM, the
// grace, SIGKILL), waits for the shell and the output, and says how.
func (p *Proc) stopped(how JobState, note string) *ProcResult {
	sig := stopRefs(p.live, jobGrace(p.spec.Grace), func(s unix.Signal) {
		reaperHas(p.PID, func() { unix.Kill(-p.PID, s) })
	})
	select {
	case <-p.exited:
	case <-time.After(killPatience):
	}
	p.drain(outputDrain)
	res := p.finish()
	res.Note = note
	switch {
	case how == JobTimedOut:
		res.Status, res.ExitCode = JobTimedOut, ExitTimeout
		if res.Signal == "" {
			res.Signal = sig
		}
	default:
		res.Status = JobKilled
		if res.Signal == "" {
			res.Signal = sig
		}
	}
	return res
}

// stopRefs stops the processes find returns: SIGTERM (and SIGCONT, or a
// stopped process would sit on it) to each, and to group (when given)
// first; find again and again during the grace, for what is born meanwhile;
// then SIGKILL until find returns nothing, at most killPatience. It returns
// the last signal sent ("" when nothing was alive).
func stopRefs(find func() []ProcRef, grace time.Duration, group func(unix.Signal)) string {
	last := ""
	if group != nil {
		group(unix.SIGTERM)
		group(unix.SIGCONT)
	}
	sent := map[ProcRef]bool{}
	deadline := time.Now().Add(grace)
	for {
		refs := find()
		if len(refs) == 0 {
			return last
		}
		if time.Now().After(deadline) {
			break
		}
		for _, r := range refs {
			if !sent[r] {
				sent[r] = true
				if signalExact(r, unix.SIGTERM) {
					last = "SIGTERM"
				}
				signalExact(r, unix.SIGCONT)
			}
		}
		if group != nil && last == "" {
			last = "SIGTERM"
		}
		time.Sleep(10 * time.Millisecond)
	}
	giveUp := time.Now().Add(killPatience)
	for {
		refs := find()
		if len(refs) == 0 || time.Now().After(giveUp) {
			return last
		}
		if group != nil {
			group(unix.SIGKILL)
		}
		for _, r := range refs {
			signalExact(r, unix.SIGKILL)
		}
		last = "SIGKILL"
		time.Sleep(10 * time.Millisecond)
	}
}

// handover makes the running command a job (see Wait). It returns nil, nil
// when none of the command's processes is alive any more: the command is
// then ending, and Wait goes on waiting for it.
func (p *Proc) handover(shellExited bool) (*ProcResult, error) {
	p.pauseReaders()
	refs := p.live()
	if len(refs) == 0 {
		p.resumeReaders()
		return nil, nil
	}
	p.mu.Lock()
	err := p.spillLocked() // the output read so far opens the job's logs
	for _, s := range p.streams {
		if s.log != nil {
			s.log.Close()
			s.log = nil
		}
	}
	dir, id := p.jobDir, p.id
	p.mu.Unlock()
	if err != nil {
		return p.stopped(JobKilled, "could not make it a job, stopped it instead: "+err.Error()), nil
	}
	pids := make([]int, len(refs))
	for i, r := range refs {
		pids[i] = r.PID
	}
	spec := AdoptSpec{
		ID: id, Command: p.spec.Command, Dir: p.dir, Session: p.spec.Session, PIDs: pids,
		Main: ProcRef{PID: p.PID, Start: p.startTick}, ReportExit: true, Grace: p.spec.Grace,
		Origin: p.spec.Origin, Stdin: p.stdin,
	}
	if spec.Origin == "" {
		spec.Origin = OriginStarted
		if shellExited {
			spec.Origin = OriginAdopted
		}
	}
	if p.spec.Timeout > 0 {
		spec.Timeout = max(p.spec.Timeout-time.Since(p.start), time.Millisecond)
	}
	for i, s := range p.streams {
		p.mu.Lock()
		open := !s.atEOF
		p.mu.Unlock()
		if open && i == 0 {
			spec.Stdout = s.f
		} else if open {
			spec.Stderr = s.f
		}
	}
	spec.Marked = p.marker == id // see makeDirLocked
	j, err := p.sp.store.Adopt(context.Background(), spec)
	if errors.Is(err, ErrNothingToAdopt) {
		p.mu.Lock()
		p.jobDir = ""
		p.mu.Unlock()
		os.RemoveAll(dir)
		p.resumeReaders()
		return nil, nil
	}
	if err != nil {
		p.resumeReaders()
		return p.stopped(JobKilled, "could not make it a job, stopped it instead: "+err.Error()), nil
	}
	p.mu.Lock()
	p.handed = true
	write := p.reaped && !p.exitOut
	p.exitOut = p.exitOut || write
	ws := p.ws
	p.mu.Unlock()
	if write {
		writeJSONAtomic(filepath.Join(dir, exitFile), shellExitOf(ws))
	}
	p.release()
	p.sp.mu.Lock()
	p.sp.jobs = append(p.sp.jobs, j.ID)
	p.sp.mu.Unlock()
	res := &ProcResult{Status: JobRunning, Job: j, ShellExited: shellExited, Duration: time.Since(p.start)}
	if shellExited {
		res.Note = "the shell has exited, but work it started in the background still runs"
		for _, r := range refs {
			info, err := readStat(r.PID)
			if err != nil || info.start != r.Start || info.dead() {
				continue
			}
			res.Leftovers = append(res.Leftovers, Leftover{PID: r.PID, Command: cmdline(info), Descendant: true, Action: "kept", info: info})
		}
	}
	return res, nil
}
