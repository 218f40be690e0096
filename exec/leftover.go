//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// A Leftover is a process that was still there when the shell exited: a
// live descendant (background job, setsid or double-forked daemon re-parented
// to us), or a process holding one of the shell's output pipes. A holder of
// the pipe is what makes `bash -c` callers hang; a descendant without the
// pipe is what leaks.
type Leftover struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	// HoldsOutput: the process has the shell's stdout or stderr pipe open.
	HoldsOutput bool `json:"holds_output"`
	// Descendant: the process descends from this run. Processes that only
	// hold the pipe (it was passed to them some other way) are never
	// signalled: Run kills nothing it did not start.
	Descendant bool `json:"descendant"`
	// Action is what the policy did: "terminated" (SIGTERM was enough),
	// "killed" (it needed SIGKILL), "kept", "ignored" (not a descendant),
	// or a policy's own word.
	Action string `json:"action"`

	info procInfo
}

// A LeftoverPolicy decides what happens to leftovers. KillLeftovers and
// KeepLeftovers are built in; the interface exists so that a policy which
// hands leftovers to a job manager ("adopt") can be added without touching
// Run.
type LeftoverPolicy interface {
	// Name is the policy's name on the command line.
	Name() string
	// Handle is called once per Run, after the shell has been reaped and
	// its output drained, and only when there are leftovers. It must set
	// the Action of every entry of set.Procs.
	Handle(ctx context.Context, set *LeftoverSet) error
}

// LeftoverSet is what a LeftoverPolicy works on.
type LeftoverSet struct {
	Procs []*Leftover
	r     *run
}

// OutputPipes returns duplicates of the read ends of the shell's stdout and
// stderr pipes (the same pipe twice when both went to one destination), nil
// for a stream that was not a pipe or whose reader has gone. The caller owns
// and must close them. Run closes its own ends after Handle returns, so a
// policy that lets leftovers go on writing (adoption) must keep reading from
// these, or the leftovers get EPIPE on their next write.
func (s *LeftoverSet) OutputPipes() (stdout, stderr *os.File) {
	return s.r.dupPipe(1), s.r.dupPipe(2)
}

// Terminate stops every leftover that descends from the run: SIGTERM, up to
// the grace period (WithGrace) for it to exit, then SIGKILL; processes forked
// meanwhile are stopped too and appended to Procs. Each descendant's Action
// becomes "terminated" or "killed"; the others' becomes "ignored".
func (s *LeftoverSet) Terminate() {
	stopped := s.r.terminate(s.r.cfg.grace)
	byPID := map[int]*Leftover{}
	for _, l := range s.Procs {
		byPID[l.PID] = l
		if !l.Descendant {
			l.Action = "ignored"
		}
	}
	for _, st := range stopped {
		action := "terminated"
		if st.Signal == "SIGKILL" {
			action = "killed"
		}
		if l := byPID[st.PID]; l != nil {
			l.Action = action
			continue
		}
		s.Procs = append(s.Procs, &Leftover{PID: st.PID, Command: st.Command, Descendant: true, Action: action})
	}
	for _, l := range s.Procs {
		if l.Action == "" {
			// Gone on its own between the scan and the signal.
			l.Action = "exited"
		}
	}
}

// WaitGone waits up to d for every leftover that descends from the run to
// end by itself (they are reaped as they go: the caller is their
// subreaper), and reports whether they all did; their Action is then
// "exited", the others' "ignored". It is how a policy waits out brief work
// (`sleep 0.2 & echo hi`) as the shell's caller would have, instead of
// handling it. If some are still there at the end, Procs becomes what is
// there now, children started meanwhile included.
func (s *LeftoverSet) WaitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		reapOrphans()
		alive := false
		for _, p := range s.r.runProcs() {
			if !p.dead() {
				alive = true
				break
			}
		}
		if !alive {
			for _, l := range s.Procs {
				l.Action = "ignored"
				if l.Descendant {
					l.Action = "exited"
				}
			}
			return true
		}
		if time.Now().After(deadline) {
			if found := s.r.findLeftovers(); len(found) > 0 {
				s.Procs = found
			}
			return false
		}
		time.Sleep(waitGonePoll)
	}
}

// waitGonePoll is how often WaitGone looks: a brief job's end is seen
// within this much.
const waitGonePoll = 5 * time.Millisecond

// KillLeftovers stops every leftover descendant (SIGTERM, grace, SIGKILL):
// after Run nothing it started is alive.
var KillLeftovers LeftoverPolicy = killPolicy{}

// KeepLeftovers leaves leftovers running, as `bash -c` would. Once Run has
// closed the output pipes, their writes to the inherited stdout/stderr fail
// with EPIPE (or kill them with SIGPIPE), exactly as when a `bash -c` caller
// stops reading.
var KeepLeftovers LeftoverPolicy = keepPolicy{}

type killPolicy struct{}

func (killPolicy) Name() string { return "kill" }
func (killPolicy) Handle(_ context.Context, set *LeftoverSet) error {
	set.Terminate()
	return nil
}

type keepPolicy struct{}

func (keepPolicy) Name() string { return "keep" }
func (keepPolicy) Handle(_ context.Context, set *LeftoverSet) error {
	for _, l := range set.Procs {
		if l.Descendant {
			l.Action = "kept"
		} else {
			l.Action = "ignored"
		}
	}
	return nil
}

// ParseLeftoverPolicy maps a command-line name to a policy.
func ParseLeftoverPolicy(name string) (LeftoverPolicy, error) {
	switch name {
	case "kill":
		return KillLeftovers, nil
	case "keep":
		return KeepLeftovers, nil
	}
	return nil, fmt.Errorf("unknown leftover policy %q (want kill or keep)", name)
}

// dupPipe duplicates the read end of the shell's fd n pipe.
func (r *run) dupPipe(n int) *os.File {
	s := r.streams[n]
	if s == nil || s.r < 0 {
		return nil
	}
	fd, err := unix.FcntlInt(uintptr(s.r), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	name := "stdout"
	if n == 2 {
		name = "stderr"
	}
	return os.NewFile(uintptr(fd), name)
}
