//go:build linux || darwin || freebsd

package exec

import (
	"os"

	"golang.org/x/sys/unix"
)

// ProcRef names one process across time: a pid alone can be reused once the
// process is reaped, so every recorded pid carries the start time the kernel
// gave it (on Linux clock ticks since boot, field 22 of /proc/PID/stat; on
// macOS and FreeBSD microseconds since the epoch, from kinfo_proc). Two
// processes with the same pid and start time on the same boot are the same
// process.
type ProcRef struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start_time"`
}

// jobProcStat is the part of a process's status that job tracking needs.
type jobProcStat struct {
	PID, PPID, PGID, SID int
	JobState             byte
	Start                uint64
}

// alive reports whether the process still runs. Zombies and dead tasks are
// not alive: they cannot do anything and will vanish once their parent reaps
// them, which may be a subreaper that is not us.
func (p jobProcStat) alive() bool { return p.JobState != 'Z' && p.JobState != 'X' && p.JobState != 'x' }

func jobStatOf(p procInfo) jobProcStat {
	return jobProcStat{PID: p.pid, PPID: p.ppid, PGID: p.pgid, SID: p.sid, JobState: p.state, Start: p.start}
}

// readJobStat reads the status of pid (see readStat).
func readJobStat(pid int) (jobProcStat, error) {
	p, err := readStat(pid)
	if err != nil {
		return jobProcStat{}, err
	}
	return jobStatOf(p), nil
}

// snapshotProcs reads the status of every process on the machine. Processes
// that vanish while we read are skipped.
func snapshotProcs() map[int]jobProcStat {
	all := allProcs()
	m := make(map[int]jobProcStat, len(all))
	for _, p := range all {
		m[p.pid] = jobStatOf(p)
	}
	return m
}

// descendantsIn returns every live process below roots in the snapshot.
func descendantsIn(procs map[int]jobProcStat, roots ...int) []ProcRef {
	children := make(map[int][]int)
	for pid, st := range procs {
		children[st.PPID] = append(children[st.PPID], pid)
	}
	var out []ProcRef
	seen := map[int]bool{}
	queue := append([]int(nil), roots...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if seen[c] {
				continue
			}
			seen[c] = true
			queue = append(queue, c)
			if st := procs[c]; st.alive() {
				out = append(out, ProcRef{PID: c, Start: st.Start})
			}
		}
	}
	return out
}

// procRefOf returns the ProcRef of a running process.
func procRefOf(pid int) (ProcRef, error) {
	st, err := readJobStat(pid)
	if err != nil {
		return ProcRef{}, err
	}
	return ProcRef{PID: pid, Start: st.Start}, nil
}

// refAlive reports whether the process named by r still runs (same pid, same
// start time, not a zombie).
func refAlive(r ProcRef) bool {
	if r.PID <= 0 {
		return false
	}
	st, err := readJobStat(r.PID)
	return err == nil && st.Start == r.Start && st.alive()
}

// signalExact sends sig to the process named by r, and only to it: a pidfd is
// opened first (where there are pidfds) and the start time is checked after
// that, so the pid cannot be recycled between the check and the signal;
// without a pidfd the check is repeated right before kill(2). It reports
// whether a signal was delivered.
func signalExact(r ProcRef, sig unix.Signal) bool {
	if r.PID <= 1 || r.PID == os.Getpid() {
		return false
	}
	fd, err := pidfdOpen(r.PID)
	if err != nil {
		return false
	}
	if fd >= 0 {
		defer unix.Close(fd)
	}
	st, err := readJobStat(r.PID)
	if err != nil || st.Start != r.Start || !st.alive() {
		return false
	}
	if fd >= 0 {
		return pidfdSignal(fd, sig) == nil
	}
	if st, err := readJobStat(r.PID); err != nil || st.Start != r.Start {
		return false
	}
	return unix.Kill(r.PID, sig) == nil
}
