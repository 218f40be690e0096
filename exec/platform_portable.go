//go:build (linux && portable) || darwin || freebsd

package exec

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The mechanisms shared by macOS, FreeBSD and the portable build on Linux:
// no pidfds (signals re-check the start time right before kill(2)), no scan
// for holders of the output pipes (shexec owns those pipes and stops
// copying when the shell is done, so a holder delays nobody; it is only not
// reported unless it is one of the run's processes), a pipe as the copier's
// waker, read(2)+write(2) copies.

// haveChildrenFiles: no cheap walk of one's own subtree; descendants scans
// the process table.
func haveChildrenFiles() bool { return false }

func childrenOf(pid int) []int { return childPids(pid) }

// pidfdOpen: no pidfds. The handle falls back to a start-time check before
// each kill(2). A process already gone is reported as such.
func pidfdOpen(pid int) (int, error) {
	if unix.Kill(pid, 0) == unix.ESRCH {
		return -1, errNoProc
	}
	return -1, nil
}

func pidfdSignal(int, syscall.Signal) error { return unix.ENOSYS }

// haveHolderScan: which process holds a pipe cannot be found.
const haveHolderScan = false

func holdsPipe(int, []uint64) bool { return false }

// mayHaveLeftovers: without a way to tell cheaply, always look.
func mayHaveLeftovers() bool { return true }

// awaitShell returns once the shell pid has exited, without reaping it.
// Only the shell is waited for here; orphans that a FreeBSD reaper
// receives are collected by reapOrphans once the shell is reaped.
func awaitShell(pid int) { waitExited(pid) }

// waker is how the copier learns that the shell has been reaped: a pipe.
type waker struct{ r, w int }

func newWaker() (waker, error) {
	var p [2]int
	if err := pipeCloexec(p[:]); err != nil {
		return waker{-1, -1}, err
	}
	unix.SetNonblock(p[0], true)
	unix.SetNonblock(p[1], true)
	return waker{p[0], p[1]}, nil
}

func (k waker) wake() { unix.Write(k.w, []byte{1}) }
func (k waker) close() {
	unix.Close(k.r)
	unix.Close(k.w)
}

// spliceMove: no splice(2); the copier reads and writes.
func spliceMove(int, int, int) (int64, error) { return 0, unix.ENOSYS }

func pipeBytes(fd int) (int, error) { return unix.IoctlGetInt(fd, fionread) }

func sleepBrief(d time.Duration) { time.Sleep(d) }

// setPipeSize, growPipe: pipe capacities are fixed.
func setPipeSize(int)  {}
func growPipe(int) int { return 0 }
