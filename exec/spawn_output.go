//go:build linux || darwin || freebsd

package exec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// How a Spawner's command's output is read, kept for a possible job, and
// spilled to the job's logs, and how the reaped exit status is recorded.

func (p *Proc) onExit(ws unix.WaitStatus) {
	p.mu.Lock()
	p.ws, p.reaped = ws, true
	p.mu.Unlock()
	p.recordExit()
	close(p.exited)
}

// recordExit writes the reaped exit status into the job, once the shell is
// both reaped and handed over: whichever of the two happens second (onExit,
// handover) writes it.
func (p *Proc) recordExit() {
	p.mu.Lock()
	write := p.reaped && p.handed && !p.exitOut
	p.exitOut = p.exitOut || write
	dir, ws := p.jobDir, p.ws
	p.mu.Unlock()
	if write {
		writeJSONAtomic(filepath.Join(dir, exitFile), shellExitOf(ws))
	}
}

func (p *Proc) startReading(s *procStream) {
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		bp := readBufs.Get().(*[]byte)
		defer readBufs.Put(bp)
		for {
			n, err := s.f.Read(*bp)
			if n > 0 {
				p.deliver(s, (*bp)[:n])
			}
			if err != nil {
				if errors.Is(err, os.ErrDeadlineExceeded) {
					p.mu.Lock()
					paused := s.paused
					p.mu.Unlock()
					if paused {
						return
					}
					continue
				}
				p.mu.Lock()
				s.atEOF = true
				p.mu.Unlock()
				close(s.eof)
				return
			}
		}
	}()
}

// deliver passes output to the caller and keeps it for the job.
func (p *Proc) deliver(s *procStream, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spec.Output != nil {
		p.spec.Output.Write(b)
	}
	if s.log != nil {
		s.log.Write(b)
		return
	}
	s.mem = append(s.mem, b...)
	if len(s.mem) > spoolMem {
		if err := p.spillLocked(); err != nil {
			// No disk for the job's logs: keep the newest spoolMem
			// bytes, memory stays bounded.
			s.mem = append(s.mem[:0], s.mem[len(s.mem)-spoolMem:]...)
		}
	}
}

// spillLocked makes the job's directory and moves the output kept so far
// into its logs; later output goes there directly.
func (p *Proc) spillLocked() error {
	if err := p.makeDirLocked(); err != nil {
		return err
	}
	for _, s := range p.streams {
		if s.log != nil {
			continue
		}
		l, err := openRotatingLog(filepath.Join(p.jobDir, s.name), p.spec.LogCap)
		if err != nil {
			return err
		}
		l.Write(s.mem)
		s.log, s.mem = l, nil
	}
	return nil
}

// makeDirLocked makes the job's directory under the id the command
// carries; if another job took that id meanwhile, under a fresh one (the
// processes then cannot be found by their marker, only by group and
// descent).
func (p *Proc) makeDirLocked() error {
	if p.jobDir != "" {
		return nil
	}
	dir, err := p.sp.store.reserveJobDir(p.id)
	for i := 0; errors.Is(err, fs.ErrExist) && i < 16; i++ {
		var id string
		if id, err = newJobID(); err != nil {
			return err
		}
		p.id = id
		dir, err = p.sp.store.reserveJobDir(id)
	}
	if err != nil {
		return err
	}
	p.jobDir = dir
	return nil
}

// outputDrain bounds how long a command's output is still read once
// nothing of the command is alive (see WithMaxDrain).
const outputDrain = 500 * time.Millisecond

// drain waits up to d for the output to reach EOF, then stops reading.
func (p *Proc) drain(d time.Duration) {
	over := make(chan struct{})
	t := time.AfterFunc(d, func() { close(over) })
	defer t.Stop()
	for _, s := range p.streams {
		select {
		case <-s.eof:
		case <-over:
		}
	}
	p.pauseReaders()
}

// pauseReaders stops the reading goroutines, leaving unread output in the
// pipes.
func (p *Proc) pauseReaders() {
	for _, s := range p.streams {
		p.mu.Lock()
		s.paused = true
		p.mu.Unlock()
		s.f.SetReadDeadline(time.Now())
		<-s.done
	}
}

func (p *Proc) resumeReaders() {
	for _, s := range p.streams {
		p.mu.Lock()
		s.paused = false
		eof := s.atEOF
		p.mu.Unlock()
		if !eof {
			s.f.SetReadDeadline(time.Time{})
			p.startReading(s)
		}
	}
}
