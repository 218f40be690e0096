//go:build linux || darwin || freebsd

package main

import (
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// maxScript is how much of a script file or of a script on stdin is kept
// for the analysis; a longer script is analysed no further than that (its
// cut-off text may not parse, and then it gets no analysis).
const maxScript = 1 << 20

// scriptSource gives the text of the script the shell runs, for the
// analysis that decides what to do with leftovers. It is read only when
// there are leftovers: the common command leaves none.
type scriptSource struct {
	inv invocation
	// A script on stdin: tee keeps what was forwarded from a pipe; file and
	// offset read it back from a regular file, which the shell gets as is.
	tee    *teeReader
	file   *os.File
	offset int64
}

// newScriptSource returns the source of inv's script and the reader the
// shell gets as stdin: stdin itself, except for a script that arrives
// through a pipe, which shexec forwards unchanged while keeping a copy.
// That copy is taken as the shell reads; bytes forwarded but never read
// by the shell are lost to whoever reads stdin after shexec.
func newScriptSource(inv invocation, stdin *os.File) (*scriptSource, io.Reader) {
	src := &scriptSource{inv: inv}
	if inv.mode != modeStdin || stdin == nil {
		return src, stdin
	}
	var st unix.Stat_t
	if unix.Fstat(int(stdin.Fd()), &st) != nil {
		return src, stdin
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if off, err := stdin.Seek(0, io.SeekCurrent); err == nil {
			src.file, src.offset = stdin, off
		}
		return src, stdin
	case unix.S_IFIFO:
		src.tee = &teeReader{r: stdin}
		return src, src.tee
	}
	// A terminal (an interactive shell: not analysed), or a socket, which
	// the shell's commands may also write back to: handed over as is, and
	// the script goes unanalysed.
	return src, stdin
}

// text returns the script, and false when there is none to analyse.
func (s *scriptSource) text() (string, bool) {
	switch {
	case s.inv.mode == modeCommand:
		return s.inv.command, true
	case s.inv.mode == modeFile:
		f, err := os.Open(s.inv.file)
		if err != nil {
			return "", false
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxScript))
		return string(b), err == nil
	case s.tee != nil:
		return s.tee.text(), true
	case s.file != nil:
		b := make([]byte, maxScript)
		n, err := s.file.ReadAt(b, s.offset)
		if err != nil && err != io.EOF {
			return "", false
		}
		return string(b[:n]), true
	}
	return "", false
}

// teeReader forwards a script from a pipe and keeps its first maxScript
// bytes.
type teeReader struct {
	r    io.Reader
	mu   sync.Mutex
	kept []byte
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.mu.Lock()
	if room := maxScript - len(t.kept); room > 0 {
		t.kept = append(t.kept, p[:min(n, room)]...)
	}
	t.mu.Unlock()
	return n, err
}

func (t *teeReader) text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.kept)
}
