//go:build linux || darwin || freebsd

package exec

import (
	"os"
	"os/signal"
	"sync"

	"golang.org/x/sys/unix"
)

// The reaper of a process that runs several commands at once (Spawner):
// one goroutine woken by SIGCHLD reaps the children and hands each
// registered child's exit status to its owner. Run cannot serve here: it
// owns all of the caller's children for the length of one run at a time.
//
// While a Spawner is open, every exited child is reaped (wait4(-1)): the
// caller is a subreaper, and the orphans of its commands come to it. So,
// as with Run, a program with an open Spawner must not start and wait for
// children of its own by other means (os/exec's Wait would find its child
// reaped). Job supervisors that Store.Start and Store.Adopt launch are
// registered here instead of being waited for. Once every Spawner is
// closed, only registered children are reaped (one wait4 each), so that
// the commands a closing server keeps (handed-over jobs) still get their
// exit status recorded and other children of the program are left alone.
var reaper struct {
	mu sync.Mutex
	// children are the registered children: the exit status goes to the
	// function (nil for a supervisor: only reaped).
	children map[int]func(unix.WaitStatus)
	open     int // open Spawners
	started  bool
}

// reaperOpen counts an open Spawner, starting the reaper on first use.
func reaperOpen() {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	reaper.open++
	if reaper.started {
		return
	}
	reaper.started = true
	reaper.children = map[int]func(unix.WaitStatus){}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGCHLD)
	go func() {
		for range ch {
			reapChildren()
		}
	}()
	// A child that exited before the handler was installed sent its
	// SIGCHLD to nobody.
	ch <- unix.SIGCHLD
}

func reaperClose() {
	reaper.mu.Lock()
	reaper.open--
	reaper.mu.Unlock()
}

// reaperFork runs fork (which starts one child and returns its pid) with the
// reaper held, and registers the child with onExit, so that the child
// cannot be reaped as an orphan before it is known.
func reaperFork(fork func() (int, error), onExit func(unix.WaitStatus)) (int, error) {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	pid, err := fork()
	if err == nil {
		reaper.children[pid] = onExit
	}
	return pid, err
}

// reaperTake registers a child started with os/exec (a job's supervisor)
// when a Spawner reaps this process's children, and reports whether it did:
// the caller must then not wait for it.
func reaperTake(pid int) bool {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	if reaper.open == 0 {
		return false
	}
	reaper.children[pid] = nil
	return true
}

// reaperHas reports whether pid is a registered child not yet reaped: its
// pid, and so its process group id, cannot have been recycled. f runs
// under the reaper's lock, so the answer holds during f.
func reaperHas(pid int, f func()) bool {
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	if _, ok := reaper.children[pid]; !ok {
		return false
	}
	if f != nil {
		f()
	}
	return true
}

// reaperUnknownChildren reports whether the process has a child that is not
// registered: with a subreaper, that is where a leftover of a finished
// command is found (its shell has exited, so whatever it left is an orphan
// re-parented to us, or below one).
func reaperUnknownChildren() bool {
	kids := childrenOf(os.Getpid())
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	for _, k := range kids {
		if _, ok := reaper.children[k]; !ok {
			return true
		}
	}
	return false
}

// reaperUnknown lists the children that are not registered.
func reaperUnknown() []int {
	kids := childPids(os.Getpid())
	reaper.mu.Lock()
	defer reaper.mu.Unlock()
	var out []int
	for _, k := range kids {
		if _, ok := reaper.children[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// reapChildren reaps every child that has exited (only registered ones once
// no Spawner is open) and delivers the statuses.
func reapChildren() {
	for {
		var ws unix.WaitStatus
		reaper.mu.Lock()
		pid := 0
		if reaper.open > 0 {
			p, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
			if err == unix.EINTR {
				reaper.mu.Unlock()
				continue
			}
			if err == nil {
				pid = p
			}
		} else {
			for c := range reaper.children {
				p, err := unix.Wait4(c, &ws, unix.WNOHANG, nil)
				if p == c {
					pid = c
					break
				}
				if err == unix.ECHILD {
					delete(reaper.children, c) // reaped by someone else
				}
			}
		}
		if pid <= 0 {
			reaper.mu.Unlock()
			return
		}
		onExit := reaper.children[pid]
		delete(reaper.children, pid)
		reaper.mu.Unlock()
		if onExit != nil {
			onExit(ws)
		}
	}
}
