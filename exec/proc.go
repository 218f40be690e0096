//go:build linux

package exec

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// procInfo is the part of /proc/PID/stat that identifies a process and
// places it in the tree. A pid alone does not identify a process (pids are
// recycled once a process is reaped); the pair (pid, start) does.
type procInfo struct {
	pid   int
	ppid  int
	pgid  int
	state byte
	start uint64 // clock ticks after boot
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

// readStat parses /proc/PID/stat. The command name is in parentheses and may
// itself contain spaces and parentheses, so fields are counted from the last
// ')'.
func readStat(pid int) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, errNoProc
	}
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open || closing+2 > len(b) {
		return procInfo{}, errNoProc
	}
	f := strings.Fields(string(b[closing+2:]))
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime
	if len(f) < 20 || len(f[0]) == 0 {
		return procInfo{}, errNoProc
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procInfo{}, errNoProc
	}
	return procInfo{pid: pid, ppid: ppid, pgid: pgid, state: f[0][0], start: start, comm: string(b[open+1 : closing])}, nil
}

// cmdline returns the process's argv joined by spaces, or "[comm]" when the
// argv is not readable (kernel threads, zombies, processes exiting).
func cmdline(p procInfo) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
	b = bytes.TrimRight(b, "\x00")
	if err != nil || len(b) == 0 {
		return "[" + p.comm + "]"
	}
	return string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
}

// haveChildrenFiles tells whether the kernel offers
// /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN). Walking those files
// visits only our own subtree, which is much cheaper than reading the stat
// file of every process on the machine at each exit.
var haveChildrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	return err == nil
})

// descendants returns every process below root (root excluded), dead or
// alive. Because the caller is a child subreaper, orphans of the tree are
// re-parented to it, so the walk also finds what escaped with setsid, double
// forks or nohup. Processes in skip, and what lies below them, are left
// out. The walk is a snapshot: callers that must see everything repeat it
// until it comes back empty.
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

// childrenOf lists the children of every thread of pid.
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := readDirNames(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// descendantsByScan is the fallback for kernels without children files:
// read every process's parent and keep those whose ancestry reaches root.
func descendantsByScan(root int, skip map[procKey]bool) []procInfo {
	all := allProcs()
	byParent := map[int][]procInfo{}
	for _, p := range all {
		byParent[p.ppid] = append(byParent[p.ppid], p)
	}
	var out []procInfo
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range byParent[pid] {
			if skip[c.key()] {
				continue
			}
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// allProcs reads the stat of every process on the machine.
func allProcs() []procInfo {
	names, err := readDirNames("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if info, err := readStat(pid); err == nil {
			out = append(out, info)
		}
	}
	return out
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// pipeInode returns the inode number of a pipe end. Both ends of a pipe share
// one inode, and every process holding either end shows it in /proc/PID/fd as
// a link to "pipe:[INODE]".
func pipeInode(fd int) uint64 {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return 0
	}
	return st.Ino
}

// holdsPipe reports whether pid has an open descriptor on one of the pipes
// whose inodes are given.
func holdsPipe(pid int, inodes []uint64) bool {
	if len(inodes) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	fds, err := readDirNames(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		link, err := os.Readlink(dir + fd)
		if err != nil || !strings.HasPrefix(link, "pipe:[") {
			continue
		}
		ino, err := strconv.ParseUint(strings.TrimSuffix(link[len("pipe:["):], "]"), 10, 64)
		if err != nil {
			continue
		}
		for _, want := range inodes {
			if ino == want {
				return true
			}
		}
	}
	return false
}

// handle is an open reference to one process. With a pidfd, signals reach
// exactly the process that was looked at, even if it has died and its pid
// has been given to another process in the meantime. Without pidfd support
// (kernels before 5.3) the start time is re-checked right before kill(2),
// which narrows the window to microseconds.
type handle struct {
	info procInfo
	fd   int    // pidfd, or -1
	cmd  string // argv as read when the handle was opened
}

// openHandle pins info's process. It fails when the process is gone or the
// pid now belongs to someone else.
func openHandle(info procInfo) (*handle, error) {
	fd, err := unix.PidfdOpen(info.pid, 0) // pidfds are always close-on-exec
	if err != nil {
		if err == unix.ESRCH {
			return nil, errNoProc
		}
		fd = -1
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
		return unix.PidfdSendSignal(h.fd, sig, nil, 0)
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
