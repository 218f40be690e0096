//go:build darwin || freebsd

package exec

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// What macOS and FreeBSD share: kqueue for exits, /dev/urandom for ids,
// pipe(2) + FD_CLOEXEC, and tcsetpgrp with SIGTTOU ignored.

// fionread is _IOR('f', 127, int), the ioctl that tells how many bytes a
// pipe holds (x/sys/unix does not define it for the BSDs).
const fionread = 0x4004667f

// waitExited blocks until the child pid has exited, without reaping it:
// kqueue's EVFILT_PROC/NOTE_EXIT. A child that is already a zombie (the
// registration fails with ESRCH) has exited. If kqueue fails otherwise, the
// process status is polled.
func waitExited(pid int) {
	kq, err := unix.Kqueue()
	if err == nil {
		defer unix.Close(kq)
		for {
			var ev [1]unix.Kevent_t
			unix.SetKevent(&ev[0], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
			ev[0].Fflags = unix.NOTE_EXIT
			n, err := unix.Kevent(kq, ev[:], ev[:], nil)
			switch {
			case err == unix.EINTR:
				continue
			case err == unix.ESRCH:
				return
			case err == nil && n > 0 && ev[0].Flags&unix.EV_ERROR != 0:
				if unix.Errno(ev[0].Data) == unix.ESRCH {
					return
				}
			case err == nil && n > 0:
				return
			}
			break
		}
	}
	for {
		p, err := readStat(pid)
		if err != nil || p.dead() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// watchExit sends on ch (without blocking) once r has exited, through a
// kqueue of its own. The start time is checked after the registration, so
// that a recycled pid is never watched in r's place.
func watchExit(r ProcRef, ch chan<- struct{}) {
	kq, err := unix.Kqueue()
	if err != nil {
		return
	}
	var ev [1]unix.Kevent_t
	unix.SetKevent(&ev[0], r.PID, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev[0].Fflags = unix.NOTE_EXIT
	if _, err := unix.Kevent(kq, ev[:], nil, nil); err != nil || !refAlive(r) {
		unix.Close(kq)
		return
	}
	go func() {
		defer unix.Close(kq)
		for {
			var out [1]unix.Kevent_t
			n, err := unix.Kevent(kq, nil, out[:], nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n > 0 {
				break
			}
		}
		select {
		case ch <- struct{}{}:
		default:
		}
	}()
}

// randomBytes returns 5 bytes from /dev/urandom (see the Linux version for
// why not crypto/rand).
func randomBytes() ([5]byte, error) {
	var b [5]byte
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return b, err
	}
	defer f.Close()
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return b, fmt.Errorf("/dev/urandom: %w", err)
	}
	return b, nil
}

// selfExe is the path by which the running program can start itself again.
func selfExe() string {
	if p, err := os.Executable(); err == nil {
		return p
	}
	return os.Args[0]
}

// pipeCloexec creates a close-on-exec pipe. macOS has no pipe2; the fork
// lock keeps a concurrent fork from inheriting the ends in between.
func pipeCloexec(p []int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := unix.Pipe(p); err != nil {
		return err
	}
	unix.CloseOnExec(p[0])
	unix.CloseOnExec(p[1])
	return nil
}

// takeTerminalBack makes the caller's group the terminal's foreground again
// once the shell is gone. tcsetpgrp from the background raises SIGTTOU
// unless it is ignored or blocked; x/sys/unix has no pthread_sigmask here,
// so it is ignored for the call.
func takeTerminalBack(fd int) {
	signal.Ignore(syscall.SIGTTOU)
	unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, unix.Getpgrp())
	signal.Reset(syscall.SIGTTOU)
}

// cString is the NUL-terminated string at the start of b.
func cString(b []byte) string {
	s := string(b)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s
}

// nulFields splits NUL-separated strings, dropping the trailing empty one.
func nulFields(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}
