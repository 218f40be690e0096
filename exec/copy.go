//go:build linux || darwin || freebsd

package exec

import (
	"io"
	"time"

	"golang.org/x/sys/unix"
)

// stream is one output pipe of the shell and the place its bytes go.
//
// The read end is nonblocking and polled by hand instead of being handed to
// an io.Copy goroutine: Run must be able to decide on its own when copying
// is over (a leftover process can keep the write end open forever), and it
// must be able to move bytes with splice(2) (Linux) without them passing
// through user space.
type stream struct {
	r     int    // read end, nonblocking; -1 once closed
	ino   uint64 // inode of the pipe, to recognise holders in /proc/*/fd
	dstFD int    // >= 0: bytes go straight to this descriptor
	w     io.Writer
	buf   []byte
	eof   bool // every write end is closed and the pipe is empty
	// noSplice is set once splice(2) refused the destination (a terminal,
	// a file opened O_APPEND, ...); read(2)+write(2) take over.
	noSplice bool
	// batch: the destination is a pipe big enough to take a batch (see
	// copier.run); last is when the stream was last pumped.
	batch bool
	last  time.Time
}

// Batching. A writer that streams fills the pipe a few KiB at a time, and
// every write into an empty pipe wakes the copier: moving each of those
// writes on its own costs a poll, a splice and a wake-up of the reader per
// few KiB, which is as much CPU again as the writer and the reader spend
// (500 MB through `head -c`: 15 000 cycles of 34 KiB on average, 1.6x the
// CPU of `bash -c` alone). When the stream was pumped less than
// batchWindow ago (output is streaming, not trickling) and the pipe holds
// less than batchBytes, the copier sleeps batchDelay first: the sleep lets
// the next few hundred KiB arrive, so one splice moves them and the reader
// wakes once for them (about 600 cycles of 800 KiB). A line that arrives
// after a pause is passed on at once; streaming output is delayed by well
// under a millisecond. Only with a pipe destination of at least batchBytes:
// a smaller one would make the copier sleep between moves of a few KiB.
const (
	batchWindow = time.Millisecond
	batchDelay  = 20 * time.Microsecond
	batchBytes  = 256 << 10
)

const chunk = 1 << 20 // at most this much per splice; the pipe bounds it anyway

// open reports whether the stream can still deliver bytes.
func (s *stream) open() bool { return s.r >= 0 && !s.eof }

// pump moves what is available now, up to one chunk, and returns how many
// bytes it moved: 0 when the pipe is empty, at EOF, or the destination is
// gone.
func (s *stream) pump() int {
	for {
		if s.dstFD >= 0 && !s.noSplice {
			n, err := spliceMove(s.r, s.dstFD, chunk)
			switch {
			case n > 0:
				return int(n)
			case err == nil:
				s.eof = true
				return 0
			case err == unix.EINTR:
				continue
			case err == unix.EAGAIN:
				// Either the source is empty or the destination (a pipe
				// or a nonblocking descriptor) is full.
				if !readable(s.r) {
					return 0
				}
				waitWritable(s.dstFD)
				continue
			case err == unix.EINVAL || err == unix.ENOSYS || err == unix.EOPNOTSUPP:
				s.noSplice = true
			default:
				s.fail()
				return 0
			}
		}
		if s.buf == nil {
			s.buf = make([]byte, 64<<10)
		}
		n, err := unix.Read(s.r, s.buf)
		switch {
		case n > 0:
			if err := s.write(s.buf[:n]); err != nil {
				s.fail()
				return 0
			}
			return n
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return 0
		default: // 0 bytes: EOF; an error on a pipe read end cannot be recovered either
			s.eof = true
			return 0
		}
	}
}

func (s *stream) write(p []byte) error {
	if s.dstFD < 0 {
		_, err := s.w.Write(p)
		return err
	}
	for len(p) > 0 {
		n, err := unix.Write(s.dstFD, p)
		switch {
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			waitWritable(s.dstFD)
		case err != nil:
			return err
		default:
			p = p[n:]
		}
	}
	return nil
}

// fail gives up on a stream whose destination is gone. Closing the read end
// makes the shell's next write fail with EPIPE/SIGPIPE, which is what would
// have happened had the shell written to that destination directly.
func (s *stream) fail() {
	unix.Close(s.r)
	s.r = -1
}

func readable(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, _ := unix.Poll(fds, 0)
	return n > 0
}

func waitWritable(fd int) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	for {
		if _, err := unix.Poll(fds, -1); err != unix.EINTR {
			return
		}
	}
}

// copier moves the bytes of all streams until the shell has exited and the
// pipes have gone quiet.
type copier struct {
	streams []*stream
	wake    waker // written once the shell has been reaped
	// quiet is how long the pipes may stay silent, once the shell has
	// exited, before copying stops; maxDrain bounds the whole drain so that
	// a leftover that writes without pause cannot keep Run alive.
	quiet, maxDrain time.Duration
}

// run copies until every stream is at EOF, or, after the wake-up, until no
// byte has arrived for c.quiet (or c.maxDrain has passed). Whatever the shell
// wrote before it exited is already in the pipes at wake-up time and is
// delivered in full, however slowly the destination reads, before the quiet
// period can start; so stopping early only ever cuts output of processes
// that outlived the shell.
func (c *copier) run() {
	woken := false
	var deadline time.Time
	fds := make([]unix.PollFd, 0, len(c.streams)+1)
	for {
		fds = fds[:0]
		var which []*stream
		for _, s := range c.streams {
			if s.open() {
				fds = append(fds, unix.PollFd{Fd: int32(s.r), Events: unix.POLLIN})
				which = append(which, s)
			}
		}
		if len(which) == 0 {
			return
		}
		timeout := -1
		if woken {
			left := time.Until(deadline)
			if left <= 0 {
				return
			}
			timeout = int(min(left, c.quiet).Milliseconds()) + 1
		} else {
			fds = append(fds, unix.PollFd{Fd: int32(c.wake.r), Events: unix.POLLIN})
		}
		n, err := unix.Poll(fds, timeout)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		if n == 0 && woken {
			return
		}
		if !woken && fds[len(fds)-1].Revents != 0 {
			woken = true
			c.deliverOwed()
			deadline = time.Now().Add(c.maxDrain)
			continue
		}
		for i, s := range which {
			if fds[i].Revents != 0 {
				s.waitForBatch()
				// One splice takes all the pipe holds (up to a
				// chunk); trying again at once would mostly cost a
				// failed call.
				s.pump()
			}
		}
	}
}

// waitForBatch sleeps batchDelay when the stream is streaming and its pipe
// holds less than a batch (see batchWindow).
func (s *stream) waitForBatch() {
	if !s.batch {
		return
	}
	now := time.Now()
	if now.Sub(s.last) < batchWindow {
		if n, err := pipeBytes(s.r); err == nil && n < batchBytes {
			sleepBrief(batchDelay)
		}
	}
	s.last = now
}

// deliverOwed moves the bytes the pipes hold when the shell has been
// reaped, with no deadline: they are the end of the shell's output.
func (c *copier) deliverOwed() {
	for _, s := range c.streams {
		if !s.open() {
			continue
		}
		owed, err := pipeBytes(s.r)
		for err == nil && owed > 0 && s.open() {
			n := s.pump()
			if n == 0 {
				break
			}
			owed -= n
		}
	}
}

// drain copies what the pipes hold right now without waiting for more,
// stopping at until in case a writer keeps refilling them.
func (c *copier) drain(until time.Time) {
	for _, s := range c.streams {
		for s.open() && s.pump() > 0 && time.Now().Before(until) {
		}
	}
}
