package walk

import (
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// Pass is one walk of one command: its config, its source and tree, and
// what the walk found there, which the floors above read and never write.
// What it exports is what they read: Cfg (set by the façade's options),
// Src and File, Jobs, Marks and Calls (the rules), NotPOSIX and Root's
// Src.Bad (SG3003), Reread (the façade's Result); Reset and Walk are the
// façade's driver, which pools the Pass inside its checker (one object a
// command), and ParseNested the fix's, which parses nested scripts with
// the walk's pooled parsers. Marks and Calls are of unexported types with
// exported fields: the floors above read them and cannot make one.
type Pass struct {
	passState
	// Root is the walk of the top-level shell, set anew by Walk when it
	// starts (Reset does not clear it twice).
	Root struct {
		Src Source
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
	Cfg     Config
	Src     []byte
	File    *syntax.File
	top     *syntax.Stmt // the top-level statement being walked
	Jobs    []*Job
	spare   []*Job // jobs of earlier passes, reused by newJob
	Calls   []call
	Marks   []mark
	defined map[string]bool
	// inPlace are the statements the shell execs in place of itself (see
	// markInPlace)
	inPlace     []*syntax.Stmt
	inPlaceDone bool
	// Reread: see Result.Reread
	Reread bool
	// ended: the shell the caller started ends here for sure: it
	// signalled its own process group (zsh's kill $! before any job), or
	// refused an option it cannot set (zsh's set -m under -c): nothing
	// after runs.
	ended bool
	// NotPOSIX is the error of a sh source that parses as bash only.
	NotPOSIX *diag.ParseError
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
	// AmpGt are the offsets of the `&>` that dash reads as `&` (ampgt.go)
	AmpGt []int
	// always are the offsets of zsh's `always` words (zsh_always.go)
	always []int
	// resolvedCalls are resolve's last answers (see resolveCall), and
	// nextResolved the one to replace next.
	resolvedCalls [4]resolvedCall
	nextResolved  int
	// evals are the parsed codes of eval calls (see evalSource).
	evals map[*syntax.CallExpr]*Source
}

// Reset clears what the previous pass left. Its fields are cleared one by
// one, and only those still set: assigning the whole struct (as this did)
// paid a write barrier for each of its ~35 pointer words, nil or not,
// whenever the collector was marking, which overlaps most analyses (about
// 1 % of one). TestPassResetFields makes a new field fail until it is
// cleared here. The façade's checker calls it for each command.
func (p *Pass) Reset(src []byte) {
	s := &p.passState
	// Only the used part of the buffers needs clearing: appends fill
	// from the start, and what shrank them (slices.DeleteFunc,
	// CompactFunc) zeroed the rest.
	if len(s.Jobs) > 0 {
		s.spare = append(s.spare, s.Jobs...)
		clear(s.Jobs)
		s.Jobs = s.Jobs[:0]
	}
	s.Marks = s.Marks[:0]
	s.Src = src
	s.Cfg.Lang, s.Cfg.Caller, s.Cfg.ScriptFile, s.Cfg.ShebangGuess, s.Cfg.Files = 0, 0, false, false, nil
	zeroMap(&s.Cfg.Servers)
	zeroMap(&s.written)
	zero(&s.File)
	zero(&s.top)
	zeroSlice(&s.Calls)
	zeroMap(&s.defined)
	zeroSlice(&s.inPlace)
	s.inPlaceDone, s.Reread, s.ended = false, false, false
	zero(&s.NotPOSIX)
	zeroMap(&s.pidFiles)
	zeroMap(&s.consts)
	zeroMap(&s.constSeen)
	zero(&s.assigned)
	zeroMap(&s.opaqueFiles)
	zeroSlice(&s.AmpGt)
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

func (p *Pass) isTop(s *syntax.Stmt) bool { return p.top == s }

// write records the script the command line writes into the file name.
func (p *Pass) write(name string, sc *script) {
	if p.written == nil {
		p.written = map[string]*script{}
	}
	p.written[name] = sc
}

// writtenScript is the script the command line wrote into the file name,
// or nil. Most command lines write none: then the name is not cleaned
// (path.Clean allocates for ./run.sh).
func (p *Pass) writtenScript(name string) *script {
	if len(p.written) == 0 {
		return nil
	}
	return p.written[path.Clean(name)]
}

// define notes a function or alias name the script defines.
func (p *Pass) define(name string) {
	if p.defined == nil {
		p.defined = map[string]bool{}
	}
	p.defined[name] = true
}

// ParseNested parses code (a nested script: a -c string, an eval's, a
// trap's) with a pooled parser of lang. The resolve cache is keyed by
// the nodes of trees parsed before, so it is forgotten first.
func (p *Pass) ParseNested(code string, lang syntax.LangVariant) (*syntax.File, error) {
	p.forgetResolved()
	pp := dialect.ParserPool(lang)
	pr := pp.Get().(*dialect.PooledParser)
	defer pp.Put(pr)
	return pr.P.Parse(strings.NewReader(code), "")
}

// ampGtAt reports whether the & of a statement (its Semicolon position, in
// the parsed text) is a `&>` of the source.
func (p *Pass) ampGtAt(amp int) bool {
	for _, m := range p.AmpGt {
		if amp == m || amp == m-1 {
			return true
		}
	}
	return false
}
