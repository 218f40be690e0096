//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Follow copies a job's output, from its first byte, to stdout and stderr
// as the supervisor writes it to the logs, until the job is finished (all
// its output has then been copied), until d has passed (d <= 0: no limit),
// or until ctx ends. It returns the job's record at that moment.
//
// This is how `shexec --yield` works: the command runs under a supervisor
// from the start and the caller only watches the logs, so the output
// produced before and after the yield ends up in the same job logs and
// nothing has to be handed over at the moment of yielding. The price is
// that the relative order of stdout and stderr lines is not kept.
func (s *Store) Follow(ctx context.Context, id string, d time.Duration, stdout, stderr io.Writer) (*Job, error) {
	j, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	tails := []*logTail{
		{path: filepath.Join(j.Dir, stdoutLog), w: stdout},
		{path: filepath.Join(j.Dir, stderrLog), w: stderr},
	}
	defer func() {
		for _, t := range tails {
			t.close()
		}
	}()
	var deadline <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		// Load before copying: once the job is seen finished, the copy
		// that follows is complete.
		j, err = s.Load(id)
		if err != nil {
			return nil, err
		}
		for _, t := range tails {
			t.copy()
		}
		if j.Finished() {
			return j, nil
		}
		select {
		case <-tick.C:
		case <-deadline:
			for _, t := range tails {
				t.copy()
			}
			return j, nil
		case <-ctx.Done():
			return j, ctx.Err()
		}
	}
}

// logTail follows one rotating log: it reads the file it has open to the
// end, and when the supervisor has rotated (a new file under the name),
// moves on to the new one.
type logTail struct {
	path string
	w    io.Writer
	f    *os.File
}

func (t *logTail) copy() {
	if t.w == nil {
		return
	}
	for {
		if t.f == nil {
			f, err := os.Open(t.path)
			if err != nil {
				return
			}
			t.f = f
		}
		io.Copy(t.w, t.f)
		cur, err1 := t.f.Stat()
		now, err2 := os.Stat(t.path)
		if err1 != nil || err2 != nil || os.SameFile(cur, now) {
			return
		}
		io.Copy(t.w, t.f) // rotated: finish the old file, then start on the new one
		t.f.Close()
		t.f = nil
	}
}

func (t *logTail) close() {
	if t.f != nil {
		t.f.Close()
	}
}
