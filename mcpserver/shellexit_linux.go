//go:build linux

package mcpserver

import (
	"context"

	"golang.org/x/sys/unix"
)

// waitExit reports true once process pid has exited, false if ctx ended
// first. It watches a pidfd, so a recycled pid is never mistaken for the
// shell; a pid already gone when the watch starts counts as exited. Without
// pidfds (Linux before 5.3) it waits for ctx: the run then follows the job
// until it finishes or the yield passes, as before this shortcut.
func waitExit(ctx context.Context, pid int) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ESRCH {
		return true
	}
	if err != nil {
		<-ctx.Done()
		return false
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for ctx.Err() == nil {
		if n, err := unix.Poll(fds, 100); err == nil && n > 0 {
			return true
		}
	}
	return false
}
