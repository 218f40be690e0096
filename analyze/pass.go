package analyze

import (
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// pass is one walk of one command: its config, its source and tree, and
// what the walk found there (jobs, marks, calls), which the floors above
// read; it holds nothing they write (findings, fixes: see checker).
type pass struct {
	passState
	// root is the walk of the top-level shell, set anew by walk when it
	// starts (reset does not clear it twice).
	root struct {
		src source
		sh  shell
	}
	// freeShells are the subshells that ended in earlier passes, for
	// walker.newShell to reuse.
	freeShells []*shell
}

// passState is what reset clears for every command.
type passState struct {
	// written are the script files the command line writes, by name
	// (see writtenScript).
	written map[string]*script
	cfg     config
	src     []byte
	file    *syntax.File
	top     *syntax.Stmt // the top-level statement being walked
	jobs    []*job
	spare   []*job // jobs of earlier passes, reused by newJob
	calls   []call
	marks   []mark
	defined map[string]bool
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
	s.marks = s.marks[:0]
	s.src = src
	s.cfg.lang, s.cfg.caller, s.cfg.scriptFile, s.cfg.shebangGuess, s.cfg.files = 0, 0, false, false, nil
	zeroMap(&s.cfg.servers)
	zeroMap(&s.written)
	zero(&s.file)
	zero(&s.top)
	zeroSlice(&s.calls)
	zeroMap(&s.defined)
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

func (p *pass) isTop(s *syntax.Stmt) bool { return p.top == s }

// write records the script the command line writes into the file name.
func (p *pass) write(name string, sc *script) {
	if p.written == nil {
		p.written = map[string]*script{}
	}
	p.written[name] = sc
}

// writtenScript is the script the command line wrote into the file name,
// or nil. Most command lines write none: then the name is not cleaned
// (path.Clean allocates for ./run.sh).
func (p *pass) writtenScript(name string) *script {
	if len(p.written) == 0 {
		return nil
	}
	return p.written[path.Clean(name)]
}

// define notes a function or alias name the script defines.
func (p *pass) define(name string) {
	if p.defined == nil {
		p.defined = map[string]bool{}
	}
	p.defined[name] = true
}

func (p *pass) parseNested(code string, lang syntax.LangVariant) (*syntax.File, error) {
	p.forgetResolved()
	pp := dialect.ParserPool(lang)
	pr := pp.Get().(*dialect.PooledParser)
	defer pp.Put(pr)
	return pr.P.Parse(strings.NewReader(code), "")
}

// ampGtAt reports whether the & of a statement (its Semicolon position, in
// the parsed text) is a `&>` of the source.
func (p *pass) ampGtAt(amp int) bool {
	for _, m := range p.ampGt {
		if amp == m || amp == m-1 {
			return true
		}
	}
	return false
}
