//go:build linux

package mcpserver

import (
	"context"
	"time"
)

// linger is how long a run still follows a job after its shell has exited:
// long enough for a short background step (`sleep 0.1 &`) to end and the
// run to return a plain exit, short enough that `server &` does not cost
// the model the whole yield.
const linger = 250 * time.Millisecond

// afterShellExit returns a context that ends when finished reports true
// after the process pid (a job's shell) has exited, or linger after that
// exit, or with ctx. Checking finished every millisecond once the shell is
// gone saves a quick command most of the log follower's 10 ms poll.
// stop releases the watch.
func afterShellExit(ctx context.Context, pid int, finished func() bool) (_ context.Context, stop func()) {
	cctx, cancel := context.WithCancel(ctx)
	if pid <= 0 {
		return cctx, cancel
	}
	go func() {
		if !waitExit(cctx, pid) {
			return
		}
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
	}()
	return cctx, cancel
}
