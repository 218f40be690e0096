//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"golang.org/x/sys/unix"
)

// How a Spawner's command ends: Wait, the yield, the stop of what is
// left, and the hand-over of a command still running to an adopted job.

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
	p.mu.Unlock()
	p.recordExit()
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
