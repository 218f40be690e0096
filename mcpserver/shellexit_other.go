//go:build unix && !linux

package mcpserver

import (
	"context"
	"time"

	"golang.org/x/sys/unix"
)

// waitExit reports true once process pid has exited, false if ctx ended
// first. Without pidfds it probes the pid every 5 ms; the job's supervisor
// reaps the shell at once, so the pid is not reused in between in practice.
func waitExit(ctx context.Context, pid int) bool {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if unix.Kill(pid, 0) == unix.ESRCH {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}
