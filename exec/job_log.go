//go:build linux || darwin || freebsd

package exec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultJobLogCap bounds the disk one job's stdout (and, separately, its
// stderr) may use.
const DefaultJobLogCap = 64 << 20

// rotatingLog appends to NAME and, when NAME would grow past half the cap,
// renames it to NAME.1 (dropping the previous NAME.1) and starts a new NAME
// with a marker line. A stream therefore never uses more than its cap, and
// the newest output is always kept, which is what someone polling a dev
// server's log wants.
type rotatingLog struct {
	path string
	half int64
	f    *os.File
	size int64
	rot  int
}

func openRotatingLog(path string, capBytes int64) (*rotatingLog, error) {
	if capBytes <= 0 {
		capBytes = DefaultJobLogCap
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &rotatingLog{path: path, half: max(capBytes/2, 1024), f: f, size: fi.Size()}, nil
}

func (l *rotatingLog) Write(p []byte) (int, error) {
	n := len(p)
	if l.size > 0 && l.size+int64(len(p)) > l.half {
		if err := l.rotate(); err != nil {
			return 0, err
		}
	}
	if int64(len(p)) > l.half {
		p = p[int64(len(p))-l.half:] // a single huge write: keep its tail
	}
	w, err := l.f.Write(p)
	l.size += int64(w)
	if err != nil {
		return 0, err
	}
	return n, nil
}

func (l *rotatingLog) rotate() error {
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	l.f.Close()
	l.f, l.size = f, 0
	l.rot++
	marker := fmt.Sprintf("[shexec: log rotated (%d); the previous %d bytes are in %s.1, older output was dropped]\n",
		l.rot, l.half, filepath.Base(l.path))
	w, err := l.f.WriteString(marker)
	l.size += int64(w)
	return err
}

func (l *rotatingLog) Close() error { return l.f.Close() }

// DefaultLogLines is how many lines ReadLogs returns from the end of a log
// when no offset is given.
const DefaultLogLines = 200

// LogPage is a window of lines from a job's log.
type LogPage struct {
	// Lines holds the lines without their newlines; the last one may be a
	// partial line the job is still writing.
	Lines []string `json:"lines"`
	// Offset is the 0-based index of Lines[0] among all retained lines.
	Offset int `json:"offset"`
	// Total is the number of retained lines (NAME.1 then NAME).
	Total int `json:"total"`
	// Hint says how to get the rest, when there is more.
	Hint string `json:"hint,omitempty"`
}

// ReadLogs returns lines of a job's stdout (or stderr) log. With offset < 0
// it returns the last limit lines (DefaultLogLines when limit <= 0) and a
// hint for paging back; otherwise lines [offset, offset+limit). Offsets
// count lines in the retained log: the rotated-out part first, then the
// current file.
func (s *Store) ReadLogs(id string, stderr bool, offset, limit int) (*LogPage, error) {
	j, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	name := stdoutLog
	flag := ""
	if stderr {
		name, flag = stderrLog, " --stderr"
	}
	var data []byte
	for _, p := range []string{name + ".1", name} {
		b, err := os.ReadFile(filepath.Join(j.Dir, p))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if len(data) > 0 && len(b) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		data = append(data, b...)
	}
	lines := splitLines(data)
	if limit <= 0 {
		limit = DefaultLogLines
	}
	pg := &LogPage{Total: len(lines)}
	if offset < 0 {
		offset = max(len(lines)-limit, 0)
	}
	offset = min(offset, len(lines))
	end := min(offset+limit, len(lines))
	pg.Offset, pg.Lines = offset, lines[offset:end]
	var hints []string
	if offset > 0 {
		hints = append(hints, fmt.Sprintf("earlier: shexec logs %s%s --offset %d --limit %d", id, flag, max(offset-limit, 0), min(limit, offset)))
	}
	if end < len(lines) {
		hints = append(hints, fmt.Sprintf("later: shexec logs %s%s --offset %d", id, flag, end))
	}
	if len(hints) > 0 {
		pg.Hint = fmt.Sprintf("lines %d-%d of %d; %s", offset+1, end, len(lines), strings.Join(hints, "; "))
	}
	return pg, nil
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return []string{}
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return strings.Split(string(b), "\n")
}
