package mcpserver

import (
	"context"
	"time"

	"golang.org/x/sys/unix"
)

// linger is how long a run still follows a job after its shell has exited:
// long enough for a short background step (`sleep 0.1 &`) to end and the
// run to return a plain exit, short enough that `server &` does not cost
// the model the whole yield.
const linger = 250 * time.Millisecond

// afterShellExit returns a context that ends linger after the process pid
// (a job's shell) has exited, or with ctx. Watching goes through a pidfd,
// so a recycled pid is never mistaken for the shell; a pid that is already
// gone when the watch starts counts as exited. stop releases the watch.
func afterShellExit(ctx context.Context, pid int) (_ context.Context, stop func()) {
	cctx, cancel := context.WithCancel(ctx)
	if pid <= 0 {
		return cctx, cancel
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if err == unix.ESRCH {
			time.AfterFunc(linger, cancel)
		}
		return cctx, cancel // no pidfd (old kernel): follow until the yield
	}
	go func() {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for cctx.Err() == nil {
			n, err := unix.Poll(fds, 100)
			if err == nil && n > 0 {
				select {
				case <-time.After(linger):
					cancel()
				case <-cctx.Done():
				}
				return
			}
		}
	}()
	return cctx, cancel
}
