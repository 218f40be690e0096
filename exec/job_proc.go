//go:build linux

package exec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ProcRef names one process across time: a pid alone can be reused once the
// process is reaped, so every recorded pid carries the start time the kernel
// gave it (clock ticks since boot, field 22 of /proc/PID/stat). Two processes
// with the same pid and start time on the same boot are the same process.
type ProcRef struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start_time"`
}

// jobProcStat is the part of /proc/PID/stat that job tracking needs.
type jobProcStat struct {
	PID, PPID, PGID, SID int
	JobState             byte
	Start                uint64
}

// alive reports whether the process still runs. Zombies and dead tasks are
// not alive: they cannot do anything and will vanish once their parent reaps
// them, which may be a subreaper that is not us.
func (p jobProcStat) alive() bool { return p.JobState != 'Z' && p.JobState != 'X' && p.JobState != 'x' }

// readJobStat parses /proc/PID/stat. The command name (field 2) may contain
// spaces and parentheses, so fields are counted from the last ')'.
func readJobStat(pid int) (jobProcStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return jobProcStat{}, err
	}
	return parseJobStat(pid, b)
}

func parseJobStat(pid int, b []byte) (jobProcStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return jobProcStat{}, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+2:]))
	// f[0] is field 3 (state); field N is f[N-3].
	if len(f) < 20 {
		return jobProcStat{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	st := jobProcStat{PID: pid, JobState: f[0][0]}
	var errs [4]error
	st.PPID, errs[0] = strconv.Atoi(f[1])
	st.PGID, errs[1] = strconv.Atoi(f[2])
	st.SID, errs[2] = strconv.Atoi(f[3])
	st.Start, errs[3] = strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return jobProcStat{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return st, nil
}

// snapshotProcs reads the stat of every process on the machine. Processes that
// vanish while we read are skipped.
func snapshotProcs() map[int]jobProcStat {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	m := make(map[int]jobProcStat, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readJobStat(pid); err == nil {
			m[pid] = st
		}
	}
	return m
}

// descendants returns every live process below root in the snapshot.
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
// opened first and the start time is checked after that, so the pid cannot be
// recycled between the check and the signal. It reports whether a signal was
// delivered.
func signalExact(r ProcRef, sig unix.Signal) bool {
	if r.PID <= 1 || r.PID == os.Getpid() {
		return false
	}
	fd, err := unix.PidfdOpen(r.PID, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	st, err := readJobStat(r.PID)
	if err != nil || st.Start != r.Start || !st.alive() {
		return false
	}
	return unix.PidfdSendSignal(fd, sig, nil, 0) == nil
}

// bootIDPath is where the kernel tells which boot this is. Records carry it
// because start times restart from zero at every boot: after a reboot a
// recorded (pid, start time) pair can name an unrelated process. Tests point
// it elsewhere to simulate a reboot.
var bootIDPath = "/proc/sys/kernel/random/boot_id"

func bootID() string {
	b, err := os.ReadFile(bootIDPath)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// environHas reports whether process pid has exactly kv in its environment.
// The environment is how escapees of a job whose supervisor died are found:
// every job process inherits JobIDEnv unless it scrubs its environment.
func environHas(pid int, kv string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}
