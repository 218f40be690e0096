package fdtable

import (
	"strconv"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Target is what a file descriptor points at, as far as hangs are concerned.
type Target uint8

const (
	TNone   Target = iota // closed, or nothing we know of
	TFile                 // a file, /dev/null, a terminal: nobody waits for EOF on it
	TPipe                 // a pipe inside the same asynchronous job: nobody outside waits on it
	TCaller               // the caller's stdout or stderr: the caller reads it to EOF
	TBlock                // a pipe the shell itself reads to EOF: $(…), <(…), a pipe to a reader
	// TJobRead is the pipe of a $(…) that the shell of a background job
	// reads to EOF: nobody outside waits on it, but the job does, as long
	// as a job inside holds it. It is not a pipe between a pipeline's
	// elements (tPipe): `x=$(server | true &) &` does not wait for the
	// server.
	TJobRead
	// TWorker is the pipe between a process substitution's worker and the
	// command that uses it. A worker nested in another's gets tWorker+1
	// (and so on): the inner pipe is not the outer one, and a job holding
	// the inner pipe does not keep the outer reader waiting.
	TWorker
)

// Table models descriptors 0-9 of one process, and in its slot Named
// those that `{var}>` redirections allocate. Only what they point at
// matters: a background process that keeps a tCaller or tBlock descriptor
// open keeps someone waiting for EOF.
type Table [11]Target

// Named is the one slot for every descriptor a `{var}>` redirection
// allocates (bash, zsh: the lowest free one from 10 up). They are not
// close-on-exec: a job started while `exec {out}>&1` holds a copy of the
// caller's stdout keeps it, whatever its own redirections.
const Named = 10

// CallerFDs is the table bash -c starts with: stdout and stderr are the
// caller's pipe (agent tools usually give both the same pipe), stdin is not
// something anyone waits on.
var CallerFDs = Table{0: TFile, 1: TCaller, 2: TCaller}

// Holds reports whether any descriptor keeps the caller (or the shell)
// waiting for EOF.
func (t *Table) Holds() bool {
	for fd := 1; fd < len(t); fd++ {
		if t[fd] == TCaller || t[fd] == TBlock {
			return true
		}
	}
	return false
}

// Has reports whether one of descriptors 1-9 is v.
func (t *Table) Has(v Target) bool {
	for fd := 1; fd < len(t); fd++ {
		if t[fd] == v {
			return true
		}
	}
	return false
}

// Blocks reports whether a descriptor is a pipe the shell itself reads.
func (t *Table) Blocks() bool { return t.Has(TBlock) }

// Apply returns the table after the redirections, applied left to right as
// bash does (so `2>&1 >f` leaves 2 on the caller).
func (t Table) Apply(rs []*syntax.Redirect) Table {
	for _, r := range rs {
		t.redirect(r)
	}
	return t
}

func (t *Table) redirect(r *syntax.Redirect) {
	fd := -1
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		switch {
		case err != nil:
			t.named(r)
			return
		case n >= Named:
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
			t.set(fd, TNone)
		case knowledge.IsDigits(word):
			src, _ := strconv.Atoi(word)
			t.set(fd, t.get(src))
		case word != "" && word[len(word)-1] == '-' && knowledge.IsDigits(word[:len(word)-1]):
			// n>&m- moves m to n and closes m.
			src, _ := strconv.Atoi(word[:len(word)-1])
			t.set(fd, t.get(src))
			t.set(src, TNone)
		case t[Named] != TNone && isParam(r.Word):
			// >&$out: the descriptor a {out}> redirection allocated.
			t.set(fd, t[Named])
		case r.Op == syntax.DplOut && r.N == nil:
			// `>& file` is bash's spelling of `&> file`.
			v := t.fileTarget(word)
			t.set(1, v)
			t.set(2, v)
		default:
			// A descriptor number we cannot read statically (>&$fd): assume
			// it is not the caller's pipe.
			t.set(fd, TFile)
		}
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		if fd < 0 {
			fd = 0
		}
		t.set(fd, TFile)
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
func (t *Table) named(r *syntax.Redirect) {
	prev := t[Named]
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
		t[Named] = TNone
	case prev != TCaller && prev != TBlock:
		t[Named] = v
	}
}

// isParam reports whether a word is one parameter expansion, quoted or
// not (`>&$out`, `>&"$fd"`).
func isParam(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	parts := knowledge.UnquotedParts(w)
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
func (t *Table) wordTarget(w *syntax.Word, lit string) Target {
	if w == nil || len(w.Parts) != 1 {
		return t.fileTarget(lit)
	}
	ps, ok := w.Parts[0].(*syntax.ProcSubst)
	if !ok || ps.Op != syntax.CmdOut {
		return t.fileTarget(lit)
	}
	v := TPipe
	for _, s := range ps.Stmts {
		sub := t.Apply(s.Redirs)
		for _, fd := range []int{1, 2} {
			if sub[fd] == TBlock || (sub[fd] == TCaller && v != TBlock) {
				v = sub[fd]
			}
		}
	}
	return v
}

// fileTarget is what opening the named file gives: /dev/stdout and friends
// are the descriptors themselves, anything else is a file.
func (t *Table) fileTarget(name string) Target {
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
	return TFile
}

func (t *Table) get(fd int) Target {
	if fd < 0 || fd >= len(t) {
		return TNone
	}
	return t[fd]
}

func (t *Table) set(fd int, v Target) {
	if fd >= 0 && fd < len(t) {
		t[fd] = v
	}
}

// Union is what either of two processes holds: per descriptor, the one
// that can hang the caller wins.
func (t Table) Union(u Table) Table {
	for fd := range t {
		switch {
		case u[fd] == TBlock || t[fd] == TBlock:
			t[fd] = TBlock
		case u[fd] == TCaller || t[fd] == TCaller:
			t[fd] = TCaller
		case t[fd] == TNone:
			t[fd] = u[fd]
		}
	}
	return t
}

// Hold adds to t what a process with the descriptors own holds: a pipe
// someone waits on wins over what t has for that descriptor.
func (t *Table) Hold(own Table) {
	for fd, v := range own {
		if v == TCaller || v == TBlock || t[fd] == TNone {
			t[fd] = v
		}
	}
}

// RedirFD is the descriptor r replaces first (-1 for {varname}>, which
// allocates one above 9): its number, or 0 for input and 1 for output
// (and for &>, which replaces 1 and then 2).
func RedirFD(r *syntax.Redirect) int {
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

// CloseExecFds closes what exec opened above fd 2 in the table of a
// program the shell starts (mksh, whose exec makes them close-on-exec:
// see dialect.execCloexec); the descriptors in keep stay, those that the
// program's own redirections or an enclosing compound's opened (`3>&1`,
// `{ …; } 3>&1`, a dup of the caller's pipe: see walker.redirOpen).
func (t *Table) CloseExecFds(keep uint16) {
	for fd := 3; fd < len(t); fd++ {
		if keep&(1<<fd) == 0 {
			t[fd] = TNone
		}
	}
}

// RedirMask has a bit for each descriptor above 2 that rs open, dup or
// close.
func RedirMask(rs []*syntax.Redirect) (m uint16) {
	for _, r := range rs {
		if fd := RedirFD(r); fd > 2 && fd < len(Table{}) {
			m |= 1 << fd
		}
	}
	return m
}
