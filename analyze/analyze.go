// Package analyze finds the shapes of shell commands that hang their caller
// or leave processes behind: `A && B &`, a background job that keeps the
// caller's stdout, nohup, setsid, disown, double forks, `$(x &)`, programs
// that daemonize themselves, and the same inside the code strings of
// `bash -c`, `sh -c`, `eval`, EXIT traps, here-documents fed to a shell and
// `ssh host '…'`.
//
// It parses with mvdan.cc/sh and walks every statement the shell would run
// in execution order, modelling which file descriptors each process holds
// (through redirections, `exec`, enclosing compounds and pipelines) and
// which background jobs the shell waits for or kills. The model is checked
// against bash itself by the corpus in ../corpus.
//
// A typical agent tool layer calls it before running a command:
//
//	findings, err := analyze.Analyze([]byte(cmd))
//	if err != nil { /* not valid shell: let bash report it */ }
//	if analyze.Verdict(findings) == analyze.Error { /* fix, promote or refuse */ }
package analyze

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/walk"
	"mvdan.cc/sh/v3/syntax"
)

// Analyze parses src and returns its findings, ordered by position. A
// source that does not parse returns a *ParseError. Inline
// `# shguard disable=SGxxxx -- reason` directives apply (see
// WithDirectives).
func Analyze(src []byte, opts ...Option) ([]diag.Finding, error) {
	res, err := run(src, false, opts)
	return res.Findings, err
}

// Result is the full outcome of an analysis: the findings and the
// background jobs the source starts, which promotion plans are made of.
type Result struct {
	Findings []diag.Finding
	Jobs     []Job
	File     *syntax.File
	// Reread: the source was parsed as its shell reads it after
	// same-length changes that mvdan.cc/sh needs (dash's `&>` read as
	// `& >`, bash's lone `!` of `cmd &!`, zsh's empty `;`): File is the
	// tree of that text, so code that cuts the source at File's offsets
	// (promotion plans) should leave it alone.
	Reread bool
}

// Job is a background statement of the source as the analysis sees it.
type Job struct {
	// Start and End are the byte offsets of the statement, the trailing &
	// included.
	Start, End int
	// Amp is the offset of the & that puts the statement in the background,
	// or -1 (coproc, setsid -f).
	Amp int
	// Head is where the whole statement starts when the job is only its
	// last pipeline: zsh runs the commands before it in the foreground
	// (`cd app && npm run dev &`: Start is at npm, Head at cd). Else it
	// is Start.
	Head int
	// TopLevel: the statement is a direct statement of the script (not in a
	// function, loop, group, subshell or nested string).
	TopLevel bool
	// Compound: bash runs it in a subshell that waits for its parts.
	Compound bool
	// HoldsOutput: the job keeps the caller's stdout or stderr (or a pipe
	// the shell reads) open.
	HoldsOutput bool
	// Stdout and Stderr say what the job's fds 1 and 2 are: "caller",
	// "file", "pipe" or "closed".
	Stdout, Stderr string
	// Resolved: the shell waits for it or kills it before exiting.
	Resolved bool
	// Escapes: nohup, setsid, disown, a double fork or a coproc makes it
	// outlive the shell on purpose.
	Escapes bool
	// Brief: it ends by itself at once or within a moment (quick
	// builtins, commands bounded by literal durations under a second):
	// nothing worth reporting or promoting, whatever it holds.
	Brief bool
	// Quote is the quoting a job inside a `bash -c '…'` string (one level
	// deep) sits in: '\'' or '"'; 0 for a job of the source itself. Amp is
	// set for such a job too, so that an edit can go right before its &
	// when the inserted text survives that quoting.
	Quote byte
	// List: the statement is an and-or list, pipeline, time or negation,
	// whose own redirections would apply to its last command only.
	List bool
	// Disown: zsh's `&!` or `&|` puts it in the background (and disowns
	// it): the token at Amp is two bytes long.
	Disown bool
	// Program is the offset of the first word of the job's command when
	// the job is one program that the shell's fork execs (`srv &`,
	// `PORT=1 nohup srv &`): not a builtin, function, eval, list or
	// subshell. A wrapper that execs (setsid) can go right before it;
	// like Amp, it is -1 where an edit cannot reach (deeper strings).
	Program int
}

// Run is Analyze returning the whole Result.
func Run(src []byte, opts ...Option) (*Result, error) {
	res, err := run(src, true, opts)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// run analyzes src; the jobs are made public only when withJobs (Analyze
// does not need them). The result is a value: Analyze, in front of every
// command, keeps only its findings.
func run(src []byte, withJobs bool, opts []Option) (Result, error) {
	// Checkers are reused: one sits in front of every command an agent runs.
	p := newChecker(src)
	defer p.release()
	for _, o := range opts {
		o(&p.opts)
	}
	if err := p.Walk(); err != nil {
		return Result{}, err
	}
	p.CheckRules()
	p.dropMovedFixes()
	p.applyDirectives()
	p.dropSubsumed()
	if p.opts.keep != nil {
		p.Findings = slices.DeleteFunc(p.Findings, func(f diag.Finding) bool { return !p.opts.keep(f) })
	}
	if len(p.Findings) > 0 {
		p.lines = lineStarts(p.lines[:0], src)
	}
	for i := range p.Findings {
		p.Findings[i].Start = p.position(p.Findings[i].Start.Offset)
		p.Findings[i].End = p.position(p.Findings[i].End.Offset)
	}
	slices.SortStableFunc(p.Findings, func(a, b diag.Finding) int {
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset - b.Start.Offset
		}
		return strings.Compare(a.Rule, b.Rule)
	})
	// A function called twice reports what its body starts once.
	p.Findings = slices.CompactFunc(p.Findings, func(a, b diag.Finding) bool {
		return a.Rule == b.Rule && a.Start.Offset == b.Start.Offset && a.End.Offset == b.End.Offset
	})
	res := Result{File: p.File, Reread: p.Reread}
	if len(p.Findings) > 0 {
		// p.findings is the pass's scratch, reused by the next pass: the
		// result gets a copy of exactly its length.
		res.Findings = append(make([]diag.Finding, 0, len(p.Findings)), p.Findings...)
	}
	if withJobs {
		res.Jobs = make([]Job, 0, len(p.Jobs))
		for _, j := range p.Jobs {
			res.Jobs = append(res.Jobs, p.publicJob(j))
		}
	}
	return res, nil
}

func (p *checker) publicJob(j *walk.Job) Job {
	pj := Job{
		Start:       j.Start,
		End:         j.End,
		Head:        j.Start,
		Amp:         -1,
		TopLevel:    j.TopLevel,
		Compound:    j.Kind == walk.JobCompound,
		HoldsOutput: j.Fds.Holds(),
		Stdout:      targetName(j.Fds[1]),
		Stderr:      targetName(j.Fds[2]),
		Resolved:    j.Resolved(),
		Escapes:     j.Escapes(),
		Brief:       j.Quick,
	}
	if j.LastOfList {
		pj.Head = j.Head
	}
	pj.Disown = j.Stmt.Disown
	pj.Program = -1
	if (j.Stmt.Background || j.Stmt.Disown) && j.Stmt.Semicolon.IsValid() {
		switch {
		case !j.InNested:
			pj.Amp = int(j.Stmt.Semicolon.Offset())
		case j.Depth == 1 && j.Src.Quote != 0:
			if amp := j.Src.Outer(int(j.Stmt.Semicolon.Offset())); amp > j.Start && p.Src[amp] == '&' {
				pj.Amp, pj.Quote = amp, j.Src.Quote
			}
		}
		if ce, ok := j.Stmt.Cmd.(*syntax.CallExpr); ok && pj.Amp >= 0 && walk.ExecsProgram(j, ce) {
			pj.Program = j.Src.Outer(int(ce.Args[0].Pos().Offset()))
		}
	}
	switch j.Stmt.Cmd.(type) {
	case *syntax.BinaryCmd, *syntax.TimeClause:
		pj.List = true
	}
	pj.List = pj.List || j.Stmt.Negated
	return pj
}

func targetName(t fdtable.Target) string {
	switch t {
	case fdtable.TCaller, fdtable.TBlock:
		return "caller"
	case fdtable.TFile:
		return "file"
	case fdtable.TPipe, fdtable.TJobRead:
		return "pipe"
	}
	return "closed"
}
