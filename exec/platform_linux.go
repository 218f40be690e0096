//go:build linux && !portable

package exec

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The Linux mechanisms behind platform.go's interface: a child subreaper
// (PR_SET_CHILD_SUBREAPER), pidfds, /proc (children files for the
// descendant walk, fd links for the holder scan), waitid(WNOWAIT), eventfd
// and splice.

// haveReaper: orphans of the run re-parent to the caller, so the
// descendant walk finds every escapee.
const haveReaper = true

// needRunMarker: the run's processes are found without RunIDEnv (which
// only the watchdog needs here).
const needRunMarker = false

var subreaperOnce = sync.OnceValue(func() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
})

// becomeSubreaper makes the calling process the reaper of its orphaned
// descendants.
func becomeSubreaper() error { return subreaperOnce() }

const subreaperOp = "prctl(PR_SET_CHILD_SUBREAPER)"

// haveChildrenFiles tells whether the kernel offers
// /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN). Walking those files
// visits only our own subtree, which is much cheaper than reading the stat
// file of every process on the machine at each exit.
var haveChildrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children")
	return err == nil
})

// childrenOf lists the children of every thread of pid, from
// /proc/PID/task/TID/children (see haveChildrenFiles).
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

// pidfdOpen opens a pidfd on pid: -1 without error when the kernel has no
// pidfds (before 5.3), errNoProc when the process is gone.
func pidfdOpen(pid int) (int, error) {
	fd, err := unix.PidfdOpen(pid, 0) // pidfds are always close-on-exec
	if err != nil {
		if err == unix.ESRCH {
			return -1, errNoProc
		}
		return -1, nil
	}
	return fd, nil
}

// setPdeathsig asks for sig to the child when the thread that started it
// exits (see startAndWait for why that thread is held).
func setPdeathsig(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }

func pidfdSignal(fd int, sig syscall.Signal) error {
	return unix.PidfdSendSignal(fd, sig, nil, 0)
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

// haveHolderScan: holders of the output pipes outside the run's tree can
// be found (/proc/PID/fd).
const haveHolderScan = true

// watchExit arranges a send on ch (without blocking; ch should have room for
// one) when the process r exits, so that the tracker notices the end of an
// adopted process at once instead of at its next scan. It waits on a pidfd
// through the runtime's poller: no thread is held per process. Without
// pidfd support, or if r is already gone, it does nothing and the scans
// find the exit.
func watchExit(r ProcRef, ch chan<- struct{}) {
	fd, err := unix.PidfdOpen(r.PID, 0)
	if err != nil {
		return
	}
	// The pidfd names whatever had the pid when it was opened; it is ours
	// only if the start time still matches now.
	if st, err := readJobStat(r.PID); err != nil || st.Start != r.Start || unix.SetNonblock(fd, true) != nil {
		unix.Close(fd)
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	go func() {
		defer f.Close()
		rc, err := f.SyscallConn()
		if err != nil {
			return
		}
		// A pidfd becomes readable when its process exits; Read waits
		// for that in the poller and calls the function again.
		rc.Read(func(fd uintptr) bool {
			p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(p, 0)
			return err != nil && err != unix.EINTR || n > 0
		})
		select {
		case ch <- struct{}{}:
		default:
		}
	}()
}

// awaitShell returns once the shell pid has exited, without reaping it
// (startAndWait reaps it under r.mu). The same loop reaps the orphans that
// come to us as subreaper: it peeks with WNOWAIT at whichever child ended.
func awaitShell(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		who := siginfoPid(&info)
		if err != nil || who == pid {
			return
		}
		unix.Wait4(who, nil, unix.WNOHANG, nil)
	}
}

// siginfoPid extracts si_pid, the first field of the union that follows
// three int32s in siginfo_t; the union is pointer-aligned. x/sys/unix does
// not expose it.
func siginfoPid(info *unix.Siginfo) int {
	const align = unsafe.Sizeof(uintptr(0))
	const off = (3*4 + align - 1) &^ (align - 1)
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(info), off)))
}

// mayHaveLeftovers reports whether the process has any child, alive or
// zombie. One syscall instead of a walk through /proc: the common command
// leaves nothing behind, and its run should not pay for the search. Orphans
// come to us, so no child means no descendant.
func mayHaveLeftovers() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != unix.ECHILD
}

// waker is how the copier learns that the shell has been reaped: an
// eventfd, read and written through one descriptor.
type waker struct{ r, w int }

func newWaker() (waker, error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	return waker{fd, fd}, err
}

func (k waker) wake()  { unix.Write(k.w, []byte{1, 0, 0, 0, 0, 0, 0, 0}) }
func (k waker) close() { unix.Close(k.r) }

// spliceMove moves up to n bytes from the pipe r to dst without copying them
// through user space.
func spliceMove(r, dst, n int) (int64, error) {
	return unix.Splice(r, nil, dst, nil, n, unix.SPLICE_F_MOVE|unix.SPLICE_F_NONBLOCK)
}

// pipeBytes is how many bytes the pipe fd holds (FIONREAD).
func pipeBytes(fd int) (int, error) { return unix.IoctlGetInt(fd, fionread) }

// sleepBrief sleeps d (microseconds) with one system call and no trip
// through the scheduler.
func sleepBrief(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.Nanosleep(&ts, nil)
}

// setPipeSize asks for a pipeSize buffer on the pipe fd; refusal only costs
// speed.
func setPipeSize(fd int) { unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, pipeSize) }

// growPipe raises the capacity of the destination fd to pipeSize when it is
// a smaller pipe, and returns its capacity (0 when fd is not a pipe). With
// the default 64 KiB the copier could move at most 64 KiB per splice and
// would wake once per 64 KiB, however much the shell's pipe holds; a
// capacity is no part of a pipe's semantics (only PIPE_BUF atomicity is,
// and it does not change), so the caller's reader only sees bigger reads.
// Refusal (EPERM past pipe-max-size or the per-user pipe budget) leaves the
// pipe as it was.
func growPipe(fd int) int {
	n, err := unix.FcntlInt(uintptr(fd), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		return 0
	}
	if n < pipeSize {
		if m, err := unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, pipeSize); err == nil {
			n = m
		}
	}
	return n
}
