package lsp

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/shguardrc"
)

// document is an open text document. Its fields are guarded by the
// server's mutex; what an analysis reads is the snapshot, which never
// changes.
type document struct {
	uri     string
	path    string // the file for a file: URI, else ""
	langID  string
	version int32
	text    *text
	snap    *snapshot // of the latest text and settings; nil: not a shell file
	timer   *time.Timer
	running bool // a diagnostics run is under way
	again   bool // the snapshot changed during that run
}

// languageShell says whether an editor's language ID is a shell's (VS
// Code: shellscript; Neovim: sh, bash, zsh; Helix: bash), and which shell
// the ID implies when the file says none ("" for none in particular).
// Switches, not maps: a map literal is built at every start of the
// binary, and `shguard` starts before every command an agent runs.
func languageShell(id string) (string, bool) {
	switch id {
	case "shellscript", "sh":
		return "", true
	case "bash", "zsh", "dash", "mksh":
		return id, true
	case "ksh":
		return "mksh", true
	}
	return "", false
}

// extensionShell is languageShell for a file name's extension. .bats is
// not one: Bats files are not valid shell.
func extensionShell(path string) (string, bool) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".sh":
		return "", true
	case ".bash", ".zsh", ".dash", ".mksh":
		return ext[1:], true
	case ".ksh":
		return "mksh", true
	}
	return "", false
}

// isShell says whether a document is a shell script, by its language ID,
// its extension or its shebang, and which shell the first two imply (nil:
// none in particular).
func isShell(langID, path string, src []byte) (bool, *analyze.Lang) {
	hint, ok := languageShell(langID)
	if !ok {
		hint, ok = extensionShell(path)
	}
	if !ok {
		_, ok = analyze.ShebangLang(src)
	}
	if hint == "" {
		return ok, nil
	}
	l, err := analyze.ParseLang(hint)
	if err != nil {
		return ok, nil
	}
	return ok, &l
}

// uriPath is the file path of a file: URI, or "" for another scheme
// (an unsaved buffer: untitled:, a diff view: git:). It decodes the
// percent escapes itself: net/url would link net/netip, whose package
// initialisation every `shguard hook` start would pay.
func uriPath(uri string) string {
	rest, ok := strings.CutPrefix(uri, "file://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '/'); i > 0 {
		rest = rest[i:] // file://host/path: the host is not ours to reach
	}
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		if rest[i] == '%' && i+2 < len(rest) && isHex(rest[i+1]) && isHex(rest[i+2]) {
			b.WriteByte(unhex(rest[i+1])<<4 | unhex(rest[i+2]))
			i += 2
			continue
		}
		b.WriteByte(rest[i])
	}
	p := b.String()
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x on Windows
	}
	return filepath.FromSlash(p)
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// snapshot is one version of a document with the options it is analysed
// with. Its analysis runs at most once, by whoever asks first: the
// diagnostics run, a code action or a hover.
type snapshot struct {
	uri     string
	version int32
	text    *text
	opts    []analyze.Option

	once sync.Once
	res  *analyze.Result
	err  error
	took time.Duration
}

// analysis is the analyzer's result for the snapshot: a *analyze.ParseError
// for a text that does not parse, a *panicError if the analyzer failed.
func (s *snapshot) analysis() (*analyze.Result, error) {
	s.once.Do(func() {
		start := time.Now()
		s.res, s.err = run(s.text.src, s.opts)
		s.took = time.Since(start)
	})
	return s.res, s.err
}

// panicError is an analyzer panic, caught so that one script the analyzer
// cannot handle costs its diagnostics, not the editor's server.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string {
	return fmt.Sprintf("shguard failed on this file (please report it with the file): %v", e.value)
}

func run(src []byte, opts []analyze.Option) (res *analyze.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, &panicError{v, debug.Stack()}
		}
	}()
	return analyze.Run(src, opts...)
}

func isParseError(err error) (*analyze.ParseError, bool) {
	var pe *analyze.ParseError
	return pe, errors.As(err, &pe)
}

// rcCache remembers the .shguardrc of each directory, read again after a
// save or a settings change (Find walks up to the root: not per keystroke).
type rcCache struct {
	mu  sync.Mutex
	dir map[string]rcEntry
}

type rcEntry struct {
	cfg *shguardrc.Config
	err error
}

// get returns the .shguardrc that applies in dir; fresh says it was read
// now rather than remembered.
func (c *rcCache) get(dir string) (cfg *shguardrc.Config, fresh bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.dir[dir]; ok {
		return e.cfg, false, e.err
	}
	var e rcEntry
	var path string
	if path, e.err = shguardrc.Find(dir); e.err == nil && path != "" {
		e.cfg, e.err = shguardrc.Load(path)
	}
	if c.dir == nil {
		c.dir = map[string]rcEntry{}
	}
	c.dir[dir] = e
	return e.cfg, true, e.err
}

func (c *rcCache) clear() {
	c.mu.Lock()
	c.dir = nil
	c.mu.Unlock()
}
