package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/udiff"
	"github.com/shguard/shguard/rewrite"
	"github.com/shguard/shguard/shguardrc"
)

// settings are the choices for one input: from flags (set ones only) or
// merged with a .shguardrc.
type settings struct {
	severity analyze.Severity // 0: unset
	exclude  map[string]bool
	include  map[string]bool
	style    *analyze.Style
	lang     *analyze.Lang
	caller   *analyze.Caller
	servers  []string // .shguardrc servers=
}

// input is one thing to lint.
type input struct {
	name  string    // as reported: the path given, "-" or commandName
	path  string    // the file, for reading and -w; "" for stdin and -c
	stdin io.Reader // for "-"
	src   []byte    // for -c
	dir   string    // where the .shguardrc search starts
	err   error     // reading stdin failed (checkAll reads it first)
}

func (in *input) read() error {
	switch {
	case in.err != nil:
		return in.err
	case in.path != "":
		b, err := os.ReadFile(in.path)
		if err != nil {
			return err
		}
		in.src, in.dir = b, filepath.Dir(in.path)
	case in.stdin != nil:
		b, err := io.ReadAll(in.stdin)
		if err != nil {
			return err
		}
		in.src = b
	}
	return nil
}

// linter runs the inputs through the analyzer and the formatter.
type linter struct {
	flags          settings
	norc           bool
	out            formatter
	stdout, stderr io.Writer
	rcMu           sync.Mutex                   // inputs are checked concurrently (inOrder)
	rcs            map[string]*shguardrc.Config // by directory
}

// options resolves the analyzer options for an input: flags, then its
// .shguardrc, then the shebang, then the defaults.
func (l *linter) options(in *input) ([]analyze.Option, error) {
	s := l.flags
	if !l.norc {
		rc, err := l.rc(in.dir)
		if err != nil {
			return nil, err
		}
		if rc != nil {
			if s.severity == 0 {
				s.severity = rc.Severity
			}
			if s.style == nil {
				s.style = rc.Style
			}
			if s.lang == nil {
				s.lang = rc.Lang
			}
			if s.caller == nil {
				s.caller = rc.Caller
			}
			s.servers = rc.Servers
			if s.include == nil && len(rc.Include) > 0 {
				s.include = set(rc.Include)
			}
			if len(rc.Exclude) > 0 {
				ex := set(rc.Exclude)
				for id := range s.exclude {
					ex[id] = true
				}
				s.exclude = ex
			}
		}
	}
	// The shell: the flag, a `# shguard shell=` directive, .shguardrc,
	// the shebang, bash.
	lang, guessed := analyze.ShebangLang(in.src)
	if s.lang != nil {
		lang, guessed = *s.lang, false
	}
	if l.flags.lang == nil {
		if dl, ok := analyze.DirectiveLang(in.src); ok {
			lang, guessed = dl, false
		}
	}
	style := analyze.StyleExec
	if s.style != nil {
		style = *s.style
	}
	min := s.severity
	if min == 0 {
		min = analyze.Info
	}
	keep := func(f analyze.Finding) bool {
		return f.Severity >= min && !s.exclude[f.Rule] && (s.include == nil || s.include[f.Rule])
	}
	opts := []analyze.Option{analyze.WithLang(lang), analyze.WithStyle(style), analyze.WithFilter(keep), analyze.WithServers(s.servers...)}
	if s.caller != nil {
		opts = append(opts, analyze.WithCaller(*s.caller))
	}
	if guessed {
		opts = append(opts, analyze.WithShebangShell()) // (#!/bin/sh scripts run as `bash x.sh`)
	}
	dir := "." // (-c and stdin run here)
	if in.path != "" {
		opts = append(opts, analyze.WithScriptFile()) // run as `sh file`, not `sh -c`
		dir = filepath.Dir(in.path)
	}
	opts = append(opts, analyze.WithFiles(os.DirFS(dir))) // node server.js reads server.js there
	return opts, nil
}

func set(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func (l *linter) rc(dir string) (*shguardrc.Config, error) {
	l.rcMu.Lock()
	defer l.rcMu.Unlock()
	if c, ok := l.rcs[dir]; ok {
		return c, nil
	}
	path, err := shguardrc.Find(dir)
	var c *shguardrc.Config
	if err == nil && path != "" {
		c, err = shguardrc.Load(path)
	}
	if err != nil {
		return nil, err
	}
	if l.rcs == nil {
		l.rcs = map[string]*shguardrc.Config{}
	}
	l.rcs[dir] = c
	return c, nil
}

// failed reports an input that cannot be linted and returns exitInput, or
// exitUsage for a bad .shguardrc.
func (l *linter) failed(in *input, err error) int {
	var pe *analyze.ParseError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintf(l.stderr, "%s:%d:%d: parse error: %s\n", in.name, pe.Line, pe.Col, pe.Msg)
	case isRCError(err):
		fmt.Fprintf(l.stderr, "shguard: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(l.stderr, "shguard: %v\n", err)
	}
	return exitInput
}

type rcError struct{ error }

func isRCError(err error) bool {
	var r rcError
	return errors.As(err, &r)
}

// prepare reads an input and resolves its options.
func (l *linter) prepare(in *input) ([]analyze.Option, error) {
	if err := in.read(); err != nil {
		return nil, err
	}
	opts, err := l.options(in)
	if err != nil {
		return nil, rcError{err}
	}
	return opts, nil
}

// checked is what linting one input found: the analyzer's findings, or
// with fixes the rewrite, or why the input could not be linted.
type checked struct {
	fs  []analyze.Finding
	fix *rewrite.Result
	err error
}

// check reads and analyses one input (fixes it when fix is set). It runs
// concurrently with other inputs' (inOrder): everything that writes is
// left to the caller, which goes through the inputs in order.
func (l *linter) check(in *input, fix bool) checked {
	opts, err := l.prepare(in)
	if err != nil {
		return checked{err: err}
	}
	if fix {
		res, err := rewrite.Fix(in.src, opts...)
		return checked{fix: res, err: err}
	}
	fs, err := analyze.Analyze(in.src, opts...)
	return checked{fs: fs, err: err}
}

// checkAll checks the inputs over the CPUs and hands each outcome to
// report in input order. Stdin is read here first: two "-" inputs share
// one reader.
func (l *linter) checkAll(inputs []input, fix bool, report func(in *input, c checked)) {
	for i := range inputs {
		if inputs[i].stdin != nil {
			inputs[i].err = inputs[i].read()
			inputs[i].stdin = nil
		}
	}
	inOrder(len(inputs), func(i int) checked {
		return l.check(&inputs[i], fix)
	}, func(i int, c checked) {
		report(&inputs[i], c)
	})
}

// lintAll reports the findings of every input, or with diff the fixes.
func (l *linter) lintAll(inputs []input, diff bool) int {
	status, linted := exitClean, 0
	worse := func(s int) {
		if s > status {
			status = s
		}
	}
	l.checkAll(inputs, diff, func(in *input, c checked) {
		var pe *analyze.ParseError
		switch {
		case c.err != nil && !diff && errors.As(c.err, &pe):
			// A finding in every format, as ShellCheck reports its parse
			// errors; the exit status stays 2.
			linted++
			l.out.add(l.stdout, in.name, in.src, []analyze.Finding{pe.Finding()})
			worse(exitInput)
		case c.err != nil:
			worse(l.failed(in, c.err))
		case diff:
			udiff.Write(l.stdout, diffName(in.name), in.src, c.fix.Out)
			if len(c.fix.Applied)+len(c.fix.Remaining) > 0 {
				worse(exitFindings)
			}
		default:
			linted++
			l.out.add(l.stdout, in.name, in.src, c.fs)
			if len(c.fs) > 0 {
				worse(exitFindings)
			}
		}
	})
	if linted > 0 || status == exitClean {
		l.out.flush(l.stdout) // nothing on stdout when no input could be read
	}
	return status
}

// diffName is the path in diff headers: relative, slash-separated.
func diffName(name string) string {
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(name)), "./")
}

// fixOne prints the fixed source of one input; what remains goes to
// stderr in the chosen format.
func (l *linter) fixOne(in input) int {
	opts, err := l.prepare(&in)
	if err != nil {
		return l.failed(&in, err)
	}
	res, err := rewrite.Fix(in.src, opts...)
	if err != nil {
		return l.failed(&in, err)
	}
	l.stdout.Write(res.Out)
	l.out.add(l.stderr, in.name, res.Out, res.Remaining)
	l.out.flush(l.stderr)
	if len(res.Remaining) > 0 {
		return exitFindings
	}
	return exitClean
}

// writeAll fixes the files in place and reports what remains.
func (l *linter) writeAll(inputs []input) int {
	status, done := exitClean, 0
	l.checkAll(inputs, true, func(in *input, c checked) {
		if c.err != nil {
			status = max(status, l.failed(in, c.err))
			return
		}
		res := c.fix
		if len(res.Applied) > 0 && !bytes.Equal(res.Out, in.src) {
			if err := writeAtomic(in.path, res.Out); err != nil {
				fmt.Fprintf(l.stderr, "shguard: %v\n", err)
				status = max(status, exitInput)
				return
			}
			fmt.Fprintf(l.stderr, "shguard: %s: fixed %d finding(s)\n", in.name, len(res.Applied))
		}
		done++
		l.out.add(l.stdout, in.name, res.Out, res.Remaining)
		if len(res.Remaining) > 0 {
			status = max(status, exitFindings)
		}
	})
	if done > 0 {
		l.out.flush(l.stdout)
	}
	return status
}

// writeAtomic replaces the file (the target of a symlink) with data: a
// temporary file in the same directory, with the old mode and (when
// permitted) owner, synced, then renamed over it.
func writeAtomic(path string, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".shguard-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	keepOwner(tmp, st)
	if err := tmp.Chmod(st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	done = true
	return nil
}
