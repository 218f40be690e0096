//go:build linux || darwin || freebsd

package exec

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// procInfo identifies a process and places it in the tree. A pid alone does
// not identify a process (pids are recycled once a process is reaped); the
// pair (pid, start) does. It is read from /proc/PID/stat on Linux and from
// kinfo_proc (sysctl kern.proc) on macOS and FreeBSD: see readStat in the
// platform files.
type procInfo struct {
	pid   int
	ppid  int
	pgid  int
	sid   int // 0 where the platform does not report it (macOS)
	state byte
	start uint64 // Linux: clock ticks after boot; BSDs: microseconds since the epoch
	comm  string
}

// key is the identity of a process for the lifetime of the machine's boot.
type procKey struct {
	pid   int
	start uint64
}

func (p procInfo) key() procKey { return procKey{p.pid, p.start} }

// dead reports whether the process has exited and only waits to be reaped
// (zombie) or is being torn down. Such a process cannot hold anything open
// and signalling it is pointless.
func (p procInfo) dead() bool { return p.state == 'Z' || p.state == 'X' || p.state == 'x' }

var errNoProc = errors.New("no such process")

// descendants returns every process below root (root excluded), dead or
// alive. Where the caller is a child subreaper (Linux, FreeBSD), orphans of
// the tree are re-parented to it, so the walk also finds what escaped with
// setsid, double forks or nohup; elsewhere (macOS) escapees are found by
// runProcs' other means. Processes in skip, and what lies below them, are
// left out. The walk is a snapshot: callers that must see everything repeat
// it until it comes back empty.
func descendants(root int, skip map[procKey]bool) []procInfo {
	if !haveChildrenFiles() {
		return descendantsByScan(root, skip)
	}
	var out []procInfo
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range childrenOf(pid) {
			if seen[c] {
				continue
			}
			seen[c] = true
			info, err := readStat(c)
			if err != nil || skip[info.key()] {
				continue
			}
			out = append(out, info)
			queue = append(queue, c)
		}
	}
	return out
}

// descendantsByScan reads every process's parent and keeps those whose
// ancestry reaches root: the walk for kernels without children files, and
// the only one on the BSDs (one sysctl lists the whole table).
func descendantsByScan(root int, skip map[procKey]bool) []procInfo {
	return descendantsOfIn(allProcs(), skip, root)
}

// descendantsOfIn walks the snapshot all from roots (roots excluded).
func descendantsOfIn(all []procInfo, skip map[procKey]bool, roots ...int) []procInfo {
	byParent := map[int][]procInfo{}
	for _, p := range all {
		byParent[p.ppid] = append(byParent[p.ppid], p)
	}
	var out []procInfo
	seen := map[int]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	queue := append([]int(nil), roots...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range byParent[pid] {
			if skip[c.key()] || seen[c.pid] {
				continue
			}
			seen[c.pid] = true
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// childPids lists the children of pid.
func childPids(pid int) []int {
	if haveChildrenFiles() {
		return childrenOf(pid)
	}
	var out []int
	for _, p := range allProcs() {
		if p.ppid == pid {
			out = append(out, p.pid)
		}
	}
	return out
}

// pipeInode returns the inode number of a pipe end. Both ends of a pipe share
// one inode, and on Linux every process holding either end shows it in
// /proc/PID/fd as a link to "pipe:[INODE]".
func pipeInode(fd int) uint64 {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return 0
	}
	return uint64(st.Ino)
}

// handle is an open reference to one process. With a pidfd (Linux),
// signals reach exactly the process that was looked at, even if it has died
// and its pid has been given to another process in the meantime. Without
// one (kernels before 5.3, the BSDs, the portable build) the start time is
// re-checked right before kill(2), which narrows the window to
// microseconds.
type handle struct {
	info procInfo
	fd   int    // pidfd, or -1
	cmd  string // argv as read when the handle was opened
}

// openHandle pins info's process. It fails when the process is gone or the
// pid now belongs to someone else.
func openHandle(info procInfo) (*handle, error) {
	fd, err := pidfdOpen(info.pid)
	if err != nil {
		return nil, errNoProc
	}
	// The pidfd refers to whatever process had the pid when it was
	// opened; make sure that is the one we read.
	if now, err := readStat(info.pid); err != nil || now.start != info.start {
		if fd >= 0 {
			unix.Close(fd)
		}
		return nil, errNoProc
	}
	return &handle{info: info, fd: fd}, nil
}

func (h *handle) signal(sig syscall.Signal) error {
	if h.fd >= 0 {
		return pidfdSignal(h.fd, sig)
	}
	if now, err := readStat(h.info.pid); err != nil || now.start != h.info.start {
		return errNoProc
	}
	return unix.Kill(h.info.pid, sig)
}

// exited reports whether the process has terminated (it may still be a
// zombie waiting to be reaped).
func (h *handle) exited() bool {
	if h.fd >= 0 {
		fds := []unix.PollFd{{Fd: int32(h.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err == nil && n > 0
	}
	now, err := readStat(h.info.pid)
	return err != nil || now.start != h.info.start || now.dead()
}

func (h *handle) close() {
	if h.fd >= 0 {
		unix.Close(h.fd)
		h.fd = -1
	}
}

// environHas reports whether process pid has exactly kv in its environment.
// The environment is how escapees of a job whose supervisor died are found
// (every job process inherits JobIDEnv unless it scrubs its environment),
// and, where there is no subreaper, escapees of a run (RunIDEnv).
func environHas(pid int, kv string) bool {
	for _, e := range procEnviron(pid) {
		if e == kv {
			return true
		}
	}
	return false
}

// environPrefix reports whether process pid has a variable starting with
// prefix ("NAME=") in its environment.
func environPrefix(pid int, prefix string) bool {
	for _, e := range procEnviron(pid) {
		if len(e) >= len(prefix) && e[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
