//go:build linux && portable

package exec

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The portable build on Linux stands in for macOS, so that the approach
// macOS depends on is tested here: no subreaper, no pidfd, no holder scan,
// no Pdeathsig. Processes are listed from /proc/PID/stat (macOS:
// kinfo_proc), the run's marker is read from /proc/PID/environ (macOS:
// KERN_PROCARGS2), and exits are waited for with waitid(P_PID, WNOWAIT) for
// the shell and by polling for other processes (macOS: kqueue).

const haveReaper = false

const needRunMarker = true

func becomeSubreaper() error { return nil }

const subreaperOp = "subreaper"

func setPdeathsig(*syscall.SysProcAttr, syscall.Signal) {}

// waitExited blocks until the child pid has exited, without reaping it.
func waitExited(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

// watchExit sends on ch (without blocking) once r has exited, found by
// polling its status.
func watchExit(r ProcRef, ch chan<- struct{}) {
	if !refAlive(r) {
		return
	}
	go func() {
		for refAlive(r) {
			time.Sleep(20 * time.Millisecond)
		}
		select {
		case ch <- struct{}{}:
		default:
		}
	}()
}
