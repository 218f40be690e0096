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

// afterShellExit returns a context that ends when finished reports true
// after the process pid (a job's shell) has exited, or linger after that
// exit, or with ctx. Checking finished every millisecond once the shell is
// gone saves a quick command most of the log follower's 10 ms poll. Watching goes through a pidfd,
// so a recycled pid is never mistaken for the shell; a pid that is already
// gone when the watch starts counts as exited. stop releases the watch.
func afterShellExit(ctx context.Context, pid int, finished func() bool) (_ context.Context, stop func()) {
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
				end := time.After(linger)
				tick := time.NewTicker(time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-tick.C:
						if !finished() {
							continue
						}
					case <-end:
					case <-cctx.Done():
						return
					}
					cancel()
					return
				}
			}
		}
	}()
	return cctx, cancel
}
