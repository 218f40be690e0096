package analyze

import (
	"sync"

	"github.com/shguard/shguard/analyze/diag"
	"mvdan.cc/sh/v3/syntax"
)

// pass holds what the walk found; rules read it and report.
type pass struct {
	passState
	// root is the walk of the top-level shell, set anew by run when the
	// walk starts (newPass does not clear it twice).
	root struct {
		src source
		sh  shell
	}
	// freeShells are the subshells that ended in earlier passes, for
	// walker.newShell to reuse.
	freeShells []*shell
}

// passState is what newPass resets for every command.
type passState struct {
	// written are the script files the command line writes, by name
	// (see writtenScript).
	written  map[string]*script
	cfg      config
	src      []byte
	file     *syntax.File
	top      *syntax.Stmt // the top-level statement being walked
	jobs     []*job
	spare    []*job // jobs of earlier passes, reused by newJob
	calls    []call
	marks    []mark
	findings []diag.Finding
	lines    []int
	defined  map[string]bool
	// scopes of the exec fix (fix_compound.go), computed once per source
	outerScope   *scope
	nestedScopes map[*source]*scope
	rule         *Rule // the rule being checked
	// inPlace are the statements the shell execs in place of itself (see
	// markInPlace)
	inPlace     []*syntax.Stmt
	inPlaceDone bool
	// reread: see Result.Reread
	reread bool
	// ended: the shell the caller started ends here for sure: it
	// signalled its own process group (zsh's kill $! before any job), or
	// refused an option it cannot set (zsh's set -m under -c): nothing
	// after runs.
	ended bool
	// notPOSIX is the error of a sh source that parses as bash only.
	notPOSIX *diag.ParseError
	// pidFiles are the files (by literal name) into which the command
	// wrote pids (see writePids).
	pidFiles map[string]pidFile
	// consts are the variables each file assigns one literal value (see
	// constVars), worked out on first need.
	consts map[*syntax.File]map[string]string
	// constSeen are the names the walk has passed an assignment of.
	constSeen map[string]bool
	// assigned are the names the source could assign (see mayBeAssigned),
	// worked out on first need; opaqueFiles the same for nested scripts.
	assigned    *assignedNames
	opaqueFiles map[*syntax.File]bool
	// ampGt are the offsets of the `&>` that dash reads as `&` (ampgt.go)
	ampGt []int
	// always are the offsets of zsh's `always` words (zsh_always.go)
	always []int
	// resolvedCalls are resolve's last answers (see resolveCall), and
	// nextResolved the one to replace next.
	resolvedCalls [4]resolvedCall
	nextResolved  int
	// evals are the parsed codes of eval calls (see evalSource).
	evals map[*syntax.CallExpr]*source
}

var passes = sync.Pool{New: func() any { return new(pass) }}

// newPass returns a cleared pass from the pool. It keeps the buffers that
// never leave Run (ended subshells, the jobs and marks slices).
func newPass(src []byte) *pass {
	p := passes.Get().(*pass)
	p.reset(src)
	return p
}

// reset clears what the previous pass left. Its fields are cleared one by
// one, and only those still set: assigning the whole struct (as this did)
// paid a write barrier for each of its ~35 pointer words, nil or not,
// whenever the collector was marking, which overlaps most analyses (about
// 1 % of one). TestPassResetFields makes a new field fail until it is
// cleared here.
func (p *pass) reset(src []byte) {
	s := &p.passState
	// Only the used part of the buffers needs clearing: appends fill
	// from the start, and what shrank them (slices.DeleteFunc,
	// CompactFunc) zeroed the rest.
	if len(s.jobs) > 0 {
		s.spare = append(s.spare, s.jobs...)
		clear(s.jobs)
		s.jobs = s.jobs[:0]
	}
	if len(s.findings) > 0 {
		clear(s.findings)
		s.findings = s.findings[:0]
	}
	s.marks, s.lines = s.marks[:0], s.lines[:0]
	s.src = src
	s.cfg.lang, s.cfg.caller, s.cfg.scriptFile, s.cfg.shebangGuess, s.cfg.style, s.cfg.noDirectives, s.cfg.files = 0, 0, false, false, 0, false, nil
	zeroMap(&s.cfg.servers)
	if s.cfg.keep != nil {
		s.cfg.keep = nil
	}
	zeroMap(&s.written)
	zero(&s.file)
	zero(&s.top)
	zeroSlice(&s.calls)
	zeroMap(&s.defined)
	zero(&s.outerScope)
	zeroMap(&s.nestedScopes)
	zero(&s.rule)
	zeroSlice(&s.inPlace)
	s.inPlaceDone, s.reread, s.ended = false, false, false
	zero(&s.notPOSIX)
	zeroMap(&s.pidFiles)
	zeroMap(&s.consts)
	zeroMap(&s.constSeen)
	zero(&s.assigned)
	zeroMap(&s.opaqueFiles)
	zeroSlice(&s.ampGt)
	zeroSlice(&s.always)
	zeroMap(&s.evals)
	s.forgetResolved()
}

// zero, zeroMap and zeroSlice clear what v points to unless it is clear
// already (see pass.reset).
func zero[T comparable](v *T) {
	var z T
	if *v != z {
		*v = z
	}
}

func zeroMap[K comparable, V any](m *map[K]V) {
	if *m != nil {
		*m = nil
	}
}

func zeroSlice[T any](s *[]T) {
	if *s != nil {
		*s = nil
	}
}

// release hands the pass back, with its scratch slices (the Result has
// copies); what the next reset would clear is cleared now, so that the
// pool does not keep this command's tree alive.
func (p *pass) release() {
	p.reset(nil)
	passes.Put(p)
}
