package analyze

import (
	"strconv"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// target is what a file descriptor points at, as far as hangs are concerned.
type target uint8

const (
	tNone   target = iota // closed, or nothing we know of
	tFile                 // a file, /dev/null, a terminal: nobody waits for EOF on it
	tPipe                 // a pipe inside the same asynchronous job: nobody outside waits on it
	tCaller               // the caller's stdout or stderr: the caller reads it to EOF
	tBlock                // a pipe the shell itself reads to EOF: $(…), <(…), a pipe to a reader
	// tJobRead is the pipe of a $(…) that the shell of a background job
	// reads to EOF: nobody outside waits on it, but the job does, as long
	// as a job inside holds it. It is not a pipe between a pipeline's
	// elements (tPipe): `x=$(server | true &) &` does not wait for the
	// server.
	tJobRead
	// tWorker is the pipe between a process substitution's worker and the
	// command that uses it. A worker nested in another's gets tWorker+1
	// (and so on): the inner pipe is not the outer one, and a job holding
	// the inner pipe does not keep the outer reader waiting.
	tWorker
)

// fdTable models descriptors 0-9 of one process, and in its slot fdNamed
// those that `{var}>` redirections allocate. Only what they point at
// matters: a background process that keeps a tCaller or tBlock descriptor
// open keeps someone waiting for EOF.
type fdTable [11]target

// fdNamed is the one slot for every descriptor a `{var}>` redirection
// allocates (bash, zsh: the lowest free one from 10 up). They are not
// close-on-exec: a job started while `exec {out}>&1` holds a copy of the
// caller's stdout keeps it, whatever its own redirections.
const fdNamed = 10

// callerFDs is the table bash -c starts with: stdout and stderr are the
// caller's pipe (agent tools usually give both the same pipe), stdin is not
// something anyone waits on.
var callerFDs = fdTable{0: tFile, 1: tCaller, 2: tCaller}

// holds reports whether any descriptor keeps the caller (or the shell)
// waiting for EOF.
func (t *fdTable) holds() bool {
	for fd := 1; fd < len(t); fd++ {
		if t[fd] == tCaller || t[fd] == tBlock {
			return true
		}
	}
	return false
}

// has reports whether one of descriptors 1-9 is v.
func (t *fdTable) has(v target) bool {
	for fd := 1; fd < len(t); fd++ {
		if t[fd] == v {
			return true
		}
	}
	return false
}

// blocks reports whether a descriptor is a pipe the shell itself reads.
func (t *fdTable) blocks() bool { return t.has(tBlock) }

// apply returns the table after the redirections, applied left to right as
// bash does (so `2>&1 >f` leaves 2 on the caller).
func (t fdTable) apply(rs []*syntax.Redirect) fdTable {
	for _, r := range rs {
		t.redirect(r)
	}
	return t
}

func (t *fdTable) redirect(r *syntax.Redirect) {
	fd := -1
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		switch {
		case err != nil:
			t.named(r)
			return
		case n >= fdNamed:
			return // `12>&1`: bash only, not followed
		}
		fd = n
	}
	word := ""
	if r.Word != nil {
		word = knowledge.WordLit(r.Word)
	}
	switch r.Op {
	case syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
		v := t.wordTarget(r.Word, word)
		t.set(1, v)
		t.set(2, v)
	case syntax.DplOut, syntax.DplIn:
		def := 1
		if r.Op == syntax.DplIn {
			def = 0
		}
		if fd < 0 {
			fd = def
		}
		switch {
		case word == "-":
			t.set(fd, tNone)
		case knowledge.IsDigits(word):
			src, _ := strconv.Atoi(word)
			t.set(fd, t.get(src))
		case word != "" && word[len(word)-1] == '-' && knowledge.IsDigits(word[:len(word)-1]):
			// n>&m- moves m to n and closes m.
			src, _ := strconv.Atoi(word[:len(word)-1])
			t.set(fd, t.get(src))
			t.set(src, tNone)
		case t[fdNamed] != tNone && isParam(r.Word):
			// >&$out: the descriptor a {out}> redirection allocated.
			t.set(fd, t[fdNamed])
		case r.Op == syntax.DplOut && r.N == nil:
			// `>& file` is bash's spelling of `&> file`.
			v := t.fileTarget(word)
			t.set(1, v)
			t.set(2, v)
		default:
			// A descriptor number we cannot read statically (>&$fd): assume
			// it is not the caller's pipe.
			t.set(fd, tFile)
		}
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		if fd < 0 {
			fd = 0
		}
		t.set(fd, tFile)
	case syntax.RdrInOut:
		if fd < 0 {
			fd = 0
		}
		t.set(fd, t.fileTarget(word))
	default: // >, >>, >|, >>|
		if fd < 0 {
			fd = 1
		}
		t.set(fd, t.wordTarget(r.Word, word))
	}
}

// named makes a {varname}> redirection, which allocates a new descriptor
// above 9 (see fdNamed): one more beside any there already, so a copy of
// the caller's pipe there stays until one of them is closed (`{out}>&-`).
func (t *fdTable) named(r *syntax.Redirect) {
	prev := t[fdNamed]
	plain := *r
	plain.N = nil
	u := *t
	u.redirect(&plain)
	v := u[1]
	if plain.Op == syntax.DplIn || plain.Op == syntax.RdrIn || plain.Op == syntax.RdrInOut || plain.Op == syntax.Hdoc || plain.Op == syntax.DashHdoc || plain.Op == syntax.WordHdoc {
		v = u[0]
	}
	switch {
	case plain.Word != nil && knowledge.WordLit(plain.Word) == "-":
		t[fdNamed] = tNone
	case prev != tCaller && prev != tBlock:
		t[fdNamed] = v
	}
}

// isParam reports whether a word is one parameter expansion, quoted or
// not (`>&$out`, `>&"$fd"`).
func isParam(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	parts := unquotedParts(w)
	if len(parts) != 1 {
		return false
	}
	_, ok := parts[0].(*syntax.ParamExp)
	return ok
}

// wordTarget is what an output redirection to the word gives: a file, or
// for >(list) whatever the list's own output holds. The list runs
// asynchronously with the descriptors the writer has when the redirection
// is made and reads the pipe until every writer has closed it, so a writer
// that outlives the shell (`server > >(tee log) &`) keeps the list, and
// what it writes to, alive: bash confirms the caller never gets EOF.
func (t *fdTable) wordTarget(w *syntax.Word, lit string) target {
	if w == nil || len(w.Parts) != 1 {
		return t.fileTarget(lit)
	}
	ps, ok := w.Parts[0].(*syntax.ProcSubst)
	if !ok || ps.Op != syntax.CmdOut {
		return t.fileTarget(lit)
	}
	v := tPipe
	for _, s := range ps.Stmts {
		sub := t.apply(s.Redirs)
		for _, fd := range []int{1, 2} {
			if sub[fd] == tBlock || (sub[fd] == tCaller && v != tBlock) {
				v = sub[fd]
			}
		}
	}
	return v
}

// fileTarget is what opening the named file gives: /dev/stdout and friends
// are the descriptors themselves, anything else is a file.
func (t *fdTable) fileTarget(name string) target {
	switch name {
	case "/dev/stdout", "/proc/self/fd/1", "/dev/fd/1":
		return t[1]
	case "/dev/stderr", "/proc/self/fd/2", "/dev/fd/2":
		return t[2]
	}
	if len(name) > len("/dev/fd/") && name[:len("/dev/fd/")] == "/dev/fd/" && knowledge.IsDigits(name[len("/dev/fd/"):]) {
		n, _ := strconv.Atoi(name[len("/dev/fd/"):])
		return t.get(n)
	}
	return tFile
}

func (t *fdTable) get(fd int) target {
	if fd < 0 || fd >= len(t) {
		return tNone
	}
	return t[fd]
}

func (t *fdTable) set(fd int, v target) {
	if fd >= 0 && fd < len(t) {
		t[fd] = v
	}
}

// union is what either of two processes holds: per descriptor, the one
// that can hang the caller wins.
func (t fdTable) union(u fdTable) fdTable {
	for fd := range t {
		switch {
		case u[fd] == tBlock || t[fd] == tBlock:
			t[fd] = tBlock
		case u[fd] == tCaller || t[fd] == tCaller:
			t[fd] = tCaller
		case t[fd] == tNone:
			t[fd] = u[fd]
		}
	}
	return t
}

// hold adds to t what a process with the descriptors own holds: a pipe
// someone waits on wins over what t has for that descriptor.
func (t *fdTable) hold(own fdTable) {
	for fd, v := range own {
		if v == tCaller || v == tBlock || t[fd] == tNone {
			t[fd] = v
		}
	}
}

// redirFD is the descriptor r replaces first (-1 for {varname}>, which
// allocates one above 9): its number, or 0 for input and 1 for output
// (and for &>, which replaces 1 and then 2).
func redirFD(r *syntax.Redirect) int {
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		if err != nil {
			return -1
		}
		return n
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return 0
	}
	return 1
}

// closeExecFds closes what exec opened above fd 2 in the table of a
// program the shell starts (mksh, whose exec makes them close-on-exec:
// see dialect.execCloexec); the descriptors in keep stay, those that the
// program's own redirections or an enclosing compound's opened (`3>&1`,
// `{ …; } 3>&1`, a dup of the caller's pipe: see walker.redirOpen).
func (t *fdTable) closeExecFds(keep uint16) {
	for fd := 3; fd < len(t); fd++ {
		if keep&(1<<fd) == 0 {
			t[fd] = tNone
		}
	}
}

// redirMask has a bit for each descriptor above 2 that rs open, dup or
// close.
func redirMask(rs []*syntax.Redirect) (m uint16) {
	for _, r := range rs {
		if fd := redirFD(r); fd > 2 && fd < len(fdTable{}) {
			m |= 1 << fd
		}
	}
	return m
}
