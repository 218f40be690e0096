//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// JobStdin says where a job's standard input comes from.
type JobStdin string

const (
	// JobStdinNull gives the job /dev/null: a background job must not compete
	// with its caller for the caller's input.
	JobStdinNull JobStdin = "null"
	// JobStdinPipe gives the job a FIFO that Store.Write feeds, from any
	// process, until Store.Write is called with eof.
	JobStdinPipe JobStdin = "pipe"
)

// DefaultJobGrace is how long a job gets between SIGTERM and SIGKILL.
const DefaultJobGrace = 2 * time.Second

// JobSpec describes a job to start.
type JobSpec struct {
	Command string   // passed to Shell -c
	Shell   string   // default "bash"
	Flags   []string // the shell's options before Command, instead of "-c" (see WithShellFlags)
	Args    []string // $0 and $1... after -c Command, as with bash -c
	Dir     string   // working directory; default the caller's
	Env     []string // environment; default the caller's
	Session string   // scope for List and Clear
	// Timeout, when positive, stops the job (SIGTERM, Grace, SIGKILL to
	// the whole tree) once it has run that long.
	Timeout time.Duration
	Grace   time.Duration // default DefaultJobGrace
	Stdin   JobStdin      // default JobStdinNull
	LogCap  int64         // bytes per stream; default DefaultJobLogCap
	Origin  JobOrigin     // recorded in the job's meta; default OriginStarted
}

// Start starts spec as a managed job and returns its record once the job's
// process runs and meta.json is on disk. The job runs under its own
// supervisor (this program re-executed with SupervisorArg in a new session,
// with no link to the caller's stdio), so it outlives the caller.
func (s *Store) Start(ctx context.Context, spec JobSpec) (*Job, error) {
	if spec.Command == "" {
		return nil, errors.New("empty command")
	}
	shell := spec.Shell
	if shell == "" {
		shell = "bash"
	}
	shellPath, err := osexec.LookPath(shell)
	if err != nil {
		return nil, err
	}
	dir := spec.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	env := spec.Env
	if env == nil {
		env = os.Environ()
	}
	stdin := spec.Stdin
	if stdin == "" {
		stdin = JobStdinNull
	}
	if stdin != JobStdinNull && stdin != JobStdinPipe {
		return nil, fmt.Errorf("unknown stdin mode %q", stdin)
	}
	m := JobMeta{
		Command: spec.Command, Shell: shellPath, Flags: spec.Flags, Args: spec.Args, Cwd: dir,
		Session: spec.Session, Stdin: string(stdin),
		TimeoutMS: spec.Timeout.Milliseconds(), GraceMS: jobGrace(spec.Grace).Milliseconds(),
		Origin: spec.Origin,
	}
	if m.Origin == "" {
		m.Origin = OriginStarted
	}
	return s.launch(ctx, superviseSpec{JobMeta: m, Env: env, LogCap: spec.LogCap}, nil)
}

// AdoptSpec describes processes that already run (leftovers of a foreground
// run: escapees, holders of its output pipes) to be turned into a job.
type AdoptSpec struct {
	Command string // what the caller ran, for listings
	Dir     string
	Session string
	PIDs    []int // the processes; the first is reported as the job's pid
	// Stdout and Stderr, when set, are the read ends of the pipes the
	// processes write to. The job's supervisor drains them into the job's
	// logs; the caller must stop reading them and may close its copies once
	// Adopt returns.
	Stdout, Stderr *os.File
	Timeout        time.Duration
	Grace          time.Duration

	// The fields below serve a run started in the caller's own process
	// and handed over to a job while it runs (Proc.Wait).

	// ID, when set, is the job's id (its directory may exist already,
	// holding the output read so far).
	ID string
	// Marked: the processes carry ID as JobIDEnv (see JobMeta.Marked).
	Marked bool
	// Main is the job's main process (the shell), recorded as the job's
	// pid and start time even when it has exited already; it led the
	// job's process group. Zero: the first live process of PIDs.
	Main ProcRef
	// Stdin, when set, is the write end of the pipe the processes read
	// as their stdin: the supervisor feeds it from the job's stdin FIFO,
	// so Store.Write works as for a job started with JobStdinPipe.
	Stdin *os.File
	// ReportExit: the caller is the parent of Main and records its exit
	// status with Proc's reaper (exit.json) when it reaps it; the job's
	// status then has the exit code instead of none.
	ReportExit bool
	// Origin is recorded in the job's meta; default OriginAdopted.
	Origin JobOrigin
}

// Adopt makes already-running processes a job. A supervisor cannot become
// the parent of an existing process, so the job gets a tracker instead of a
// parent: the same supervisor program in adopt mode, which follows the
// processes and their later children through /proc, drains their output
// pipes, enforces the timeout and records the end. Only the exit status is
// out of reach (the kernel reports it to the parent alone), so an adopted
// job ends as "exited" with a nil ExitCode. A tracker process rather than a
// record polled by readers was chosen because someone must keep reading the
// adopted processes' output pipes once the foreground caller is gone, or
// they block or die of SIGPIPE on their next write.
func (s *Store) Adopt(ctx context.Context, spec AdoptSpec) (*Job, error) {
	if len(spec.PIDs) == 0 {
		return nil, errors.New("nothing to adopt")
	}
	m := JobMeta{
		ID: spec.ID, Command: spec.Command, Cwd: spec.Dir, Session: spec.Session, Stdin: string(JobStdinNull),
		TimeoutMS: spec.Timeout.Milliseconds(), GraceMS: jobGrace(spec.Grace).Milliseconds(),
		Origin: spec.Origin, Marked: spec.Marked && spec.ID != "",
	}
	if m.Origin == "" {
		m.Origin = OriginAdopted
	}
	if spec.ID != "" && !validID(spec.ID) {
		return nil, fmt.Errorf("adopt: %q is not a job id", spec.ID)
	}
	if spec.Main.PID > 0 {
		m.PID, m.PGID, m.StartTime = spec.Main.PID, spec.Main.PID, spec.Main.Start
	}
	for _, pid := range spec.PIDs {
		st, err := readJobStat(pid)
		if err != nil || !st.alive() {
			continue
		}
		r := ProcRef{PID: pid, Start: st.Start}
		if m.PID == 0 {
			m.PID, m.PGID, m.StartTime = pid, st.PGID, st.Start
		}
		m.Adopted = append(m.Adopted, r)
	}
	if len(m.Adopted) == 0 {
		return nil, ErrNothingToAdopt
	}
	if spec.ReportExit {
		self, err := procRefOf(os.Getpid())
		if err != nil {
			return nil, err
		}
		m.ExitReporter = self
	}
	var extra []*os.File
	sp := superviseSpec{JobMeta: m, Adopt: true}
	if spec.Stdout != nil || spec.Stderr != nil || spec.Stdin != nil {
		null, err := os.Open(os.DevNull)
		if err != nil {
			return nil, err
		}
		defer null.Close()
		extra = []*os.File{null, null, null}
		if spec.Stdout != nil {
			extra[0], sp.HasStdout = spec.Stdout, true
		}
		if spec.Stderr != nil {
			extra[1], sp.HasStderr = spec.Stderr, true
		}
		if spec.Stdin != nil {
			extra[2], sp.HasStdin = spec.Stdin, true
		}
	}
	return s.launch(ctx, sp, extra)
}

// ErrNothingToAdopt is Adopt's error when none of the processes is alive
// any more.
var ErrNothingToAdopt = errors.New("nothing to adopt: the processes are gone")

func jobGrace(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultJobGrace
	}
	return d
}

// launch creates the job directory (or, for a job whose id was chosen
// before, uses it) and starts its supervisor, handing it sp through a pipe
// and waiting for its answer. extra files become fds 5, 6...
func (s *Store) launch(ctx context.Context, sp superviseSpec, extra []*os.File) (*Job, error) {
	s.prune()
	var id, dir string
	var err error
	if id = sp.JobMeta.ID; id != "" {
		dir, err = s.jobDirFor(id)
	} else {
		id, dir, err = s.newJobDir()
	}
	if err != nil {
		return nil, err
	}
	sp.Dir, sp.JobMeta.ID = dir, id
	j, err := s.startSupervisor(ctx, sp, extra)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting job: %w", err)
	}
	return j, nil
}

func (s *Store) startSupervisor(ctx context.Context, sp superviseSpec, extra []*os.File) (*Job, error) {
	exe := s.Supervisor
	if exe == "" {
		var err error
		if exe, err = supervisorExe(); err != nil {
			return nil, err
		}
	}
	specR, specW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer specW.Close()
	resR, resW, err := os.Pipe()
	if err != nil {
		specR.Close()
		return nil, err
	}
	defer resR.Close()
	logf, err := os.OpenFile(filepath.Join(sp.Dir, superLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := osexec.Command(exe, SupervisorArg)
	cmd.Dir = "/" // pin no directory the user may want to unmount
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = append([]*os.File{specR, resW}, extra...)
	// A new session: no controlling terminal, and no signal aimed at the
	// caller's process group reaches the job.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	specR.Close()
	resW.Close()
	if err != nil {
		return nil, err
	}
	// Reap the supervisor if it ends while we still run; if we exit first
	// it is re-parented and reaped by someone else. Where a Spawner reaps
	// this process's children, it reaps the supervisor too and counts it
	// as a child of its own, not as a leftover of a run.
	if reaperTake(cmd.Process.Pid) {
		defer cmd.Process.Release()
	} else {
		go cmd.Wait()
	}

	if err := json.NewEncoder(specW).Encode(sp); err != nil {
		cmd.Process.Kill()
		return nil, err
	}
	specW.Close()

	type answer struct {
		r   superviseResult
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		var a answer
		a.err = json.NewDecoder(resR).Decode(&a.r)
		ch <- a
	}()
	var a answer
	select {
	case a = <-ch:
	case <-ctx.Done():
		cmd.Process.Kill()
		return nil, ctx.Err()
	}
	if a.err != nil {
		msg, _ := os.ReadFile(filepath.Join(sp.Dir, superLog))
		return nil, fmt.Errorf("supervisor died before starting the job: %v %s", a.err, strings.TrimSpace(string(msg)))
	}
	if a.r.Error != "" {
		return nil, errors.New(a.r.Error)
	}
	return s.Load(sp.JobMeta.ID)
}

// jobProcs finds the live processes of a job: the recorded processes (pid
// and start time must both match), everything below the supervisor while it
// lives, the members of the job's process group and every process carrying
// the job's JobIDEnv, plus their descendants. Processes started before the
// job are never included, and after a reboot nothing is: recorded pids and
// start times then name unrelated processes.
func (s *Store) jobProcs(j *Job) []ProcRef {
	if j.BootID != bootID() {
		return nil
	}
	procs := snapshotProcs()
	minStart := j.StartTime
	recorded := append([]ProcRef{{PID: j.PID, Start: j.StartTime}}, j.Adopted...)
	for _, r := range recorded {
		minStart = min(minStart, r.Start)
	}
	found := map[int]ProcRef{}
	add := func(pid int) {
		if st, ok := procs[pid]; ok && st.alive() && st.Start >= minStart {
			found[pid] = ProcRef{PID: pid, Start: st.Start}
		}
	}
	for _, r := range recorded {
		if st, ok := procs[r.PID]; ok && st.Start == r.Start {
			add(r.PID)
		}
	}
	sup := j.Supervisor
	supAlive := false
	if st, ok := procs[sup.PID]; ok && st.Start == sup.Start && st.alive() {
		supAlive = true
		for _, r := range descendantsIn(procs, sup.PID) {
			add(r.PID)
		}
	}
	// The group is the job's unless its pid now leads a newer, unrelated
	// group (the kernel reuses a pgid only once its group is empty).
	groupOurs := j.PGID > 1
	if st, ok := procs[j.PGID]; ok && groupOurs && st.PGID == j.PGID && st.Start > j.StartTime {
		groupOurs = false
		for _, r := range recorded {
			groupOurs = groupOurs || r == ProcRef{PID: st.PID, Start: st.Start}
		}
	}
	marker := JobIDEnv + "=" + j.ID
	for pid, st := range procs {
		if groupOurs && st.PGID == j.PGID {
			add(pid)
		} else if st.Start >= minStart && st.alive() && environHas(pid, marker) {
			add(pid)
		}
	}
	roots := make([]int, 0, len(found))
	for pid := range found {
		roots = append(roots, pid)
	}
	for _, r := range descendantsIn(procs, roots...) {
		add(r.PID)
	}
	delete(found, os.Getpid())
	if supAlive {
		delete(found, sup.PID)
	}
	out := make([]ProcRef, 0, len(found))
	for _, r := range found {
		out = append(out, r)
	}
	return out
}

// ErrOtherBoot is returned when asked to signal a job recorded before the
// last reboot.
var ErrOtherBoot = errors.New("the job was recorded before the machine rebooted; its pids may name other processes now, so nothing was signalled")

// Kill stops a job and everything it started: SIGTERM to every process of
// the job (see jobProcs, which finds escapees too, also of a lost job), a
// grace period (DefaultJobGrace when grace <= 0), then SIGKILL until none is
// left. It returns the job's record afterwards; a running job's supervisor
// records it as killed with the signal that ended it.
func (s *Store) Kill(ctx context.Context, id string, grace time.Duration) (*Job, error) {
	j, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	if j.BootID != bootID() {
		return j, fmt.Errorf("job %s: %w", id, ErrOtherBoot)
	}
	if j.Finished() && j.Status != JobLost {
		return j, nil // the supervisor saw the whole tree end
	}
	grace = jobGrace(grace)
	recordStop(j.Dir, unix.SIGTERM)
	sent := map[ProcRef]bool{}
	termAll := func() int {
		procs := s.jobProcs(j)
		for _, r := range procs {
			if !sent[r] {
				sent[r] = true
				signalExact(r, unix.SIGTERM)
			}
		}
		return len(procs)
	}
	deadline := time.Now().Add(grace)
	for termAll() > 0 && time.Now().Before(deadline) {
		if err := jobSleep(ctx, 20*time.Millisecond); err != nil {
			return j, err
		}
	}
	for forced := false; ; {
		procs := s.jobProcs(j)
		if len(procs) == 0 {
			break
		}
		if !forced {
			forced = true
			recordStop(j.Dir, unix.SIGKILL)
		}
		for _, r := range procs {
			signalExact(r, unix.SIGKILL)
		}
		if err := jobSleep(ctx, 20*time.Millisecond); err != nil {
			return j, err
		}
	}
	// The supervisor, if alive, now sees its last child go and writes the
	// status; give it a moment so the caller gets the final record.
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return s.Wait(wctx, id)
}

// Wait waits until the job is no longer running (its supervisor recorded
// the end, or it is lost) and returns its record. On ctx expiry it returns
// the current record and ctx's error.
func (s *Store) Wait(ctx context.Context, id string) (*Job, error) {
	delay := 5 * time.Millisecond
	for {
		j, err := s.Load(id)
		if err != nil || j.Finished() {
			return j, err
		}
		if err := jobSleep(ctx, delay); err != nil {
			return j, err
		}
		delay = min(delay*2, 100*time.Millisecond)
	}
}

func jobSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Write feeds data to the stdin of a job started with JobStdinPipe and, with
// eof, then closes it. It fails rather than blocks when the job has no
// stdin pipe or nothing reads it any more.
func (s *Store) Write(id string, data []byte, eof bool) error {
	j, err := s.Load(id)
	if err != nil {
		return err
	}
	if j.Stdin != string(JobStdinPipe) {
		return fmt.Errorf("job %s was not started with a stdin pipe", id)
	}
	if j.Finished() {
		return fmt.Errorf("job %s is %s", id, j.Status)
	}
	if len(data) > 0 {
		if err := writeFIFO(filepath.Join(j.Dir, stdinFIFO), data); err != nil {
			return fmt.Errorf("job %s stdin: %w", id, err)
		}
	}
	if eof {
		if err := writeFIFO(filepath.Join(j.Dir, ctlFIFO), []byte("eof\n")); err != nil {
			return fmt.Errorf("job %s: closing stdin: %w", id, err)
		}
	}
	return nil
}

// writeFIFO opens a FIFO without blocking (ENXIO when it has no reader,
// instead of waiting forever for one) and then writes in blocking mode, so
// a job that reads slowly gets all the data.
func writeFIFO(path string, data []byte) error {
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENXIO) || errors.Is(err, unix.ENOENT) {
			return errors.New("nothing reads it any more (the job finished or closed its input)")
		}
		return err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	_, err = f.Write(data)
	return err
}
