//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// AdoptPolicy is the "adopt" LeftoverPolicy: the leftovers of a run that
// descend from it become one managed job in Store (see Store.Adopt), which
// also takes over reading the shell's output pipes, so the leftovers keep
// running and their output goes to the job's logs. After Run, Job is the
// new job (nil when there was nothing to adopt).
type AdoptPolicy struct {
	Store   *Store
	Command string // recorded as the job's command; default: the leftovers' command lines
	Dir     string // recorded as the job's directory; default: the first leftover's working directory
	Session string
	Job     *Job
}

// Name implements LeftoverPolicy.
func (p *AdoptPolicy) Name() string { return "adopt" }

// Handle implements LeftoverPolicy. If the job cannot be created the
// leftovers are terminated instead: nothing the run started may be left
// untracked.
func (p *AdoptPolicy) Handle(ctx context.Context, set *LeftoverSet) error {
	var pids []int
	var cmds []string
	for _, l := range set.Procs {
		if !l.Descendant {
			l.Action = "ignored"
			continue
		}
		pids = append(pids, l.PID)
		cmds = append(cmds, l.Command)
	}
	if len(pids) == 0 {
		return nil
	}
	stdout, stderr := set.OutputPipes()
	if stdout != nil && stderr != nil && samePipe(stdout, stderr) {
		stderr.Close() // one pipe for both: one reader, or the two logs would split it at random
		stderr = nil
	}
	command := p.Command
	if command == "" {
		command = strings.Join(cmds, "; ")
	}
	dir := p.Dir
	if dir == "" {
		dir = workingDir(pids)
	}
	j, err := p.Store.Adopt(ctx, AdoptSpec{
		Command: command, Dir: dir, Session: p.Session, PIDs: pids,
		Stdout: stdout, Stderr: stderr, Grace: set.r.cfg.grace,
	})
	for _, f := range []*os.File{stdout, stderr} {
		if f != nil {
			f.Close()
		}
	}
	if err != nil {
		set.Terminate()
		return fmt.Errorf("could not adopt, stopped them instead: %w", err)
	}
	p.Job = j
	for _, l := range set.Procs {
		if l.Descendant {
			l.Action = "adopted as job " + j.ID
		}
	}
	return nil
}

// samePipe compares through SyscallConn rather than Fd, which would switch
// the shared file description to blocking mode under the runner's copier.
func samePipe(a, b *os.File) bool {
	stat := func(f *os.File) (st unix.Stat_t, err error) {
		c, err := f.SyscallConn()
		if err != nil {
			return st, err
		}
		if cerr := c.Control(func(fd uintptr) { err = unix.Fstat(int(fd), &st) }); cerr != nil {
			return st, cerr
		}
		return st, err
	}
	sa, err1 := stat(a)
	sb, err2 := stat(b)
	return err1 == nil && err2 == nil && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// workingDir is the working directory of the first of pids that has a
// readable one: where the work runs (`cd /tmp && server &` runs in /tmp,
// whatever directory shexec was started in). The caller's is the fallback.
func workingDir(pids []int) string {
	for _, pid := range pids {
		if d := procCwd(pid); d != "" {
			return d
		}
	}
	d, _ := os.Getwd()
	return d
}
