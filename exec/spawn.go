//go:build linux || darwin || freebsd

package exec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
