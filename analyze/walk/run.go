package walk

import (
	"time"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// Walk parses the pass's source as its shell reads it and walks it: every
// statement in execution order, then what the shell's end does to the
// jobs (the watchdogs, the kills and waits at exit, the functions never
// called). What it found is in the pass (jobs, marks, calls) for the
// rules to read; a source the shell refuses is a *ParseError.
func (p *Pass) Walk() error {
	d := p.Cfg.Lang.Dialect()
	// The rereads below parse the text as the shell reads it where
	// mvdan.cc/sh's parser refuses it; what the shell itself refuses
	// (refused) is checked on the tree of that text.
	src := p.Src
	f, err := dialect.Parse(src, d.Variant)
	var bad []int // (see badSubstsRead)
	if err != nil {
		var moved []int
		f, moved, err = dialect.Reread(src, d, err)
		p.Reread = err == nil
		if d.AmpGtBackgrounds {
			p.AmpGt = moved
		} else {
			p.always = moved
		}
	}
	if err == nil {
		if pe := d.Refused(f, src); pe != nil {
			f, err = nil, pe
		}
	}
	if err != nil {
		// zsh, mksh: bash's ${!x}, ${x^^}… refused where expanded
		if ef, ebad := expansionsRead(p, src, d); ef != nil {
			f, bad, err = ef, ebad, nil
		}
	}
	if err != nil && d.Variant == syntax.LangPOSIX {
		// A sh script with bash syntax: read it as bash (the walk still
		// models sh) and say so, as ShellCheck does, rather than stop;
		// unless the shell is known to be dash, which refuses it
		// (knownShellRefuses).
		bf, berr := dialect.Parse(src, syntax.LangBash)
		refusal := knownShellRefuses(p, src, bf, d)
		if refusal != nil {
			err = refusal
		} else if berr == nil {
			p.NotPOSIX, f = err.(*diag.ParseError), bf
			if d.BashSyntaxStops {
				// dash runs the lines before the error, and stops; it
				// ends where it expands what it refuses (badSubstsRead)
				if f, bad = badSubstsRead(p, src, bf, d); f == nil {
					if f = parsedLines(p, string(src), d.Variant, err); f == nil {
						f, _ = dialect.Parse(nil, d.Variant)
					}
				}
			}
			err = nil
		}
	}
	if err != nil {
		return dialect.ExplainParseError(err, d)
	}
	p.File = f
	p.Root.Src = Source{Text: src, Bad: bad}
	rs := &p.Root.sh // its tables are kept for the next pass, cleared
	rs.reset(shTop, false, d)
	rs.leads = p.Cfg.Caller == dialect.CallerGroupLeader

	// The walker is run's own (it does not escape): a pooled one paid a
	// write barrier for each of its pointer fields at every reset while
	// the collector marked.
	w := &walker{p: p, src: &p.Root.Src, sh: &p.Root.sh, free: p.freeShells}
	env, maybe := fdtable.CallerFDs, 0
	var prev *syntax.Stmt   // ($? of the statement before: see prevStatus)
	var slept time.Duration // (see endsWithShell)
	exitAt, exitSlept := -1, time.Duration(0)
	for i, s := range f.Stmts {
		p.top = s
		w.prev = prev
		w.next = loopFollow{s, f.Stmts[i+1:]} // (see walker.following)
		n := len(p.Jobs)
		env = w.stmt(s, env)
		w.prev = prev
		for _, j := range p.Jobs[n:] {
			j.slept = slept
		}
		if w.errTrapExits(s) {
			break // trap 'echo failed; exit 1' ERR (see walk_errtrap.go)
		}
		if w.afterExit(s, n, &maybe) || w.errexitEnds(s) {
			break
		}
		if maybe > 0 && exitAt < 0 {
			exitAt, exitSlept = len(p.Jobs), slept // the jobs an exit here leaves
		}
		if w.sureCond() == 0 {
			slept += sureSleep(s)
		}
		prev = s
	}
	w.prev = nil
	if maybe > 0 {
		w.exitCondOut()
	}
	p.top = nil
	w.endShell()
	watchdogsLate(p.Jobs) // ( sleep 30; kill $P ) & (see walk_watchdog.go)
	if exitAt >= 0 {
		endsWithShell(p.Jobs[:exitAt], exitSlept) // (the shell may exit there)
		endsWithShell(p.Jobs[exitAt:], slept)
	} else {
		endsWithShell(p.Jobs, slept)
	}
	tailsEnd(p.Jobs, w.slow, w.bounded) // tail -f --pid=$P & (see walk_tailpid.go)
	w.walkUncalled()
	p.freeShells = w.free
	return nil
}
