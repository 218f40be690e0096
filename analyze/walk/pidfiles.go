package walk

import (
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Pid files: what the script writes a job's pid into (`echo $! >
// server.pid`) and what reads it back for a kill (`kill $(cat server.pid)`).

// readsFile reports whether a statement prints a file the walk can name
// (see wordValue): `cat f` (errors aside) or `< f` (bash's $(< f)).
func (w *walker) readsFile(s *syntax.Stmt) (string, bool) {
	f := readFileWord(s)
	if f == nil {
		return "", false
	}
	name := w.cleanName(f)
	return name, name != ""
}

// readFileWord is the word naming the file a statement prints, `cat f`
// (errors aside) or `< f`; nil for any other statement.
func readFileWord(s *syntax.Stmt) *syntax.Word {
	if s.Background || s.Negated {
		return nil
	}
	switch c := s.Cmd.(type) {
	case nil:
		if len(s.Redirs) == 1 && s.Redirs[0].Op == syntax.RdrIn && s.Redirs[0].N == nil {
			return s.Redirs[0].Word
		}
	case *syntax.CallExpr:
		if len(c.Args) != 2 || len(c.Assigns) > 0 || c.Args[0].Lit() != "cat" || strings.HasPrefix(c.Args[1].Lit(), "-") {
			return nil
		}
		for _, r := range s.Redirs {
			if r.N == nil || r.N.Value != "2" {
				return nil
			}
		}
		return c.Args[1]
	}
	return nil
}

// pidFile is what the command wrote into a file: the jobs whose pids it
// printed there, or unknown.
type pidFile struct {
	jobs    []*Job
	unknown bool
	// zero: zsh's `echo $! > f` before the first job wrote 0, and a kill
	// of what it holds is `kill 0`, of the whole process group.
	zero bool
}

// pidFileJobs resolves a read of the file name to the jobs whose pids the
// command wrote there. A file the command never writes names none of its
// jobs, unless its name appears where something could write it: a daemon
// writes its own pid file (`server --pidfile run.pid &`), so then it could
// be any job.
func (w *walker) pidFileJobs(name string) ([]*Job, bool) {
	if f, ok := w.p.pidFiles[name]; ok {
		return f.jobs, !f.unknown
	}
	if w.p.mayWrite(name) {
		return nil, false
	}
	return nil, true
}

// writePids records what `echo $! > f` (printf, >>) writes into a file
// named by a literal: the jobs its arguments name, or unknown.
func (w *walker) writePids(s *syntax.Stmt, r knowledge.Resolved, inner fdtable.Table) {
	name, appends, own := "", false, false
	for _, rd := range s.Redirs {
		if fdtable.RedirFD(rd) == 1 {
			own = true
		}
		if rd.N != nil && rd.N.Value != "1" {
			continue
		}
		switch rd.Op {
		case syntax.RdrOut, syntax.ClbOut, syntax.RdrAll:
			name, appends = w.wordValue(rd.Word), false
		case syntax.AppOut, syntax.AppAll:
			name, appends = w.wordValue(rd.Word), true
		default:
			continue
		}
		if name == "" {
			return // a file the walk cannot name
		}
	}
	if !own && inner[1] == fdtable.TFile {
		// The file an enclosing redirection opened: each echo adds to it.
		name, appends = w.outFile, true
	}
	if name == "" {
		return
	}
	name = path.Clean(name)
	f := pidFile{}
	if appends {
		f = w.p.pidFiles[name]
		if _, ok := w.p.pidFiles[name]; !ok && w.p.mayWrite(name) {
			f.unknown = true
		}
	}
	for _, a := range r.Args {
		if knowledge.WordLit(a) != "" {
			continue // text, options, a format
		}
		if w.sh.d.BangZero && w.sh.last == nil && isLastPid(a) {
			f.zero = true
			continue
		}
		js, known, _ := w.argJobs(a)
		if !known {
			f.unknown = true
		}
		f.jobs = append(f.jobs, js...)
	}
	if w.p.pidFiles == nil {
		w.p.pidFiles = map[string]pidFile{}
	}
	w.p.pidFiles[name] = f
}

// stdoutTo is the file, by literal name, that the redirections rs send
// stdout to, starting from out ("" for none or one the walk cannot name),
// and whether the last of them opens it anew (>, not >>).
func (w *walker) stdoutTo(rs []*syntax.Redirect, out string) (name string, truncates bool) {
	for _, rd := range rs {
		if fdtable.RedirFD(rd) != 1 {
			continue
		}
		out, truncates = "", false
		switch rd.Op {
		case syntax.RdrOut, syntax.ClbOut, syntax.RdrAll, syntax.RdrAllClob, syntax.AppOut, syntax.AppAll, syntax.AppAllClob:
			if name := w.cleanName(rd.Word); name != "" {
				out = name
				truncates = rd.Op != syntax.AppOut && rd.Op != syntax.AppAll && rd.Op != syntax.AppAllClob
			}
		}
	}
	return out, truncates
}

// openPidFile records that a statement whose echoes the walk follows (a
// compound, a function, a shell given its code) opened the file name anew
// for its stdout: what it held is gone, and the echoes inside add to it
// (see writePids).
func (w *walker) openPidFile(name string) {
	if w.p.pidFiles == nil {
		w.p.pidFiles = map[string]pidFile{}
	}
	w.p.pidFiles[name] = pidFile{}
}

// forgetWrites makes the files a command other than echo or printf writes
// (by a literal name) unknown again.
func (w *walker) forgetWrites(s *syntax.Stmt) {
	for _, rd := range s.Redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.ClbOut, syntax.RdrAll, syntax.AppOut, syntax.AppAll, syntax.RdrInOut:
			if name := w.cleanName(rd.Word); name != "" {
				if _, ok := w.p.pidFiles[name]; ok {
					w.p.pidFiles[name] = pidFile{unknown: true}
				}
			}
		}
	}
}

// stdinFile is the file a simple command reads its stdin from (`xargs
// kill < f`), named by a literal, as the word $(cat f).
func (w *walker) stdinFile(s *syntax.Stmt) *syntax.Word {
	var in *syntax.Redirect
	for _, rd := range s.Redirs {
		if rd.Op == syntax.RdrIn && (rd.N == nil || rd.N.Value == "0") {
			in = rd
		}
	}
	if in == nil || w.wordValue(in.Word) == "" {
		return nil
	}
	cat := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "cat"}}}
	ce := &syntax.CallExpr{Args: []*syntax.Word{cat, in.Word}}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: ce}}}}}
}

// echoWrites reports whether the text before a file name ends in the
// output redirection of an echo, printf or print, whose writes the walk
// follows: `echo $! > run.pid` writes the pid where the walk sees it, so
// a read before it finds no pid of this command line's jobs.
func echoWrites(before string) bool {
	if !strings.HasSuffix(before, ">") || strings.HasSuffix(before, "&>") {
		return false
	}
	cmd := strings.TrimLeft(before[strings.LastIndexAny(before, "\n;&|(){}")+1:], " \t")
	name, _, _ := strings.Cut(cmd, " ")
	return name == "echo" || name == "printf" || name == "print"
}

// mayWrite reports whether the command line could write the file name
// other than by the echo the walk follows: its base name appears in the
// source other than as what cat, a < redirection, a test, rm or pkill -F
// read, or an echo writes.
func (p *Pass) mayWrite(name string) bool {
	base := path.Base(name)
	if base == "." || base == "/" {
		return true
	}
	src := string(p.Src)
	for i := 0; ; {
		k := strings.Index(src[i:], base)
		if k < 0 {
			return false
		}
		at := i + k
		i = at + len(base)
		// The start of the word it is part of, and what comes before.
		start := at
		for start > 0 && !strings.ContainsRune(" \t\n;&|()<>'\"`", rune(src[start-1])) {
			start--
		}
		before := strings.TrimRight(src[:start], " \t'\"")
		if strings.HasSuffix(before, "<") && !strings.HasSuffix(before, "<<") {
			continue
		}
		if echoWrites(before) {
			continue // echo $! > run.pid: the walk follows that write (writePids)
		}
		prev := before[strings.LastIndexAny(before, " \t\n;&|()'\"`")+1:]
		switch prev {
		case "cat", "-F", "-f", "-e", "-s", "-r", "[", "[[", "test", "rm", "-rf", "--":
			continue
		}
		return true
	}
}

// readsZero reports whether the kill operand a is `$(cat f)` (or `$(< f)`)
// of a pid file that holds 0 (see pidFile.zero).
func (w *walker) readsZero(a *syntax.Word) bool {
	cs, ok := knowledge.SolePart(a).(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 || w.p.pidFiles == nil {
		return false
	}
	name, ok := w.readsFile(cs.Stmts[0])
	return ok && w.p.pidFiles[name].zero
}
