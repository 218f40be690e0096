package walk

import (
	"errors"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// mapOffs composes a nested string's offsets with the current source's map.
func (w *walker) mapOffs(offs []int) []int {
	if w.src.Offs == nil {
		return offs
	}
	out := make([]int, len(offs))
	for i, o := range offs {
		out[i] = w.src.Outer(o)
	}
	return out
}

// sshArgOpts are the ssh options that take an argument.
const sshArgOpts = "bcDEeFIiJLlmOopQRSWw"

// remoteShell walks the command of `ssh host 'CMD'` as the program of the
// remote shell. ssh ends the session only when the remote command's stdout
// and stderr are closed, so a remote background job that keeps them open
// keeps ssh, and so the caller, waiting: `ssh host 'nohup ./server &'`
// never returns. With -f ssh forks away (SG2008); then nothing is walked.
func (w *walker) remoteShell(r knowledge.Resolved, env fdtable.Table) {
	w.nest.remote++
	defer func() { w.nest.remote-- }()
	i := 0
	for ; i < len(r.Args); i++ {
		v := knowledge.WordLit(r.Args[i])
		if v == "--" {
			i++
			break
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			break
		}
		if strings.Contains(v, "f") && !strings.HasPrefix(v, "--") {
			return
		}
		if last := v[len(v)-1]; len(v) == 2 && strings.IndexByte(sshArgOpts, last) >= 0 {
			i++ // the option's argument
		}
	}
	// r.args[i] is the host; one word after it is the remote command.
	if i+2 != len(r.Args) || w.nest.depth >= maxNested {
		return
	}
	w.nested(r.Args[i+1], dialect.DialectBash, env, shNested) // the remote login shell: unknown, bash the likeliest
}

// nestedShell walks the string of `bash -c '…'` as the program of a child
// shell whose descriptors are the command's.
func (w *walker) nestedShell(r knowledge.Resolved, d *dialect.Dialect, env fdtable.Table, s *syntax.Stmt) {
	script, cflag, sflag, operand := dialect.ShellArgs(r.Args)
	if w.nest.depth >= maxNested {
		return
	}
	set, refused := dialect.ShellFlagsOf(r.Args, d)
	if refused {
		return // `sh -eu -o pipefail -c '…'` in dash: "Illegal option"
	}
	w.nest.starting.set, w.nest.starting.args = set, w.shellFrame(r, s)
	defer func() { w.nest.starting = nestedStart{} }()
	if script != nil {
		// A shell the group leader execs in place leads the group too, and
		// execs its own -c string's tail in place.
		w.nest.starting.leads = w.leads(s, r)
		w.nest.starting.jobShell = w.jobShell(s)
		w.nest.starting.childOfScript = w.childOfScript(s, r)
		if code, offs, ok := knowledge.OuterExpanded(script); ok {
			w.nestedCode(code, offs, 0, d, env, shNested)
			return
		}
		w.nested(script, d, env, shNested)
		return
	}
	if !cflag && !sflag && operand != nil {
		// `sh run.sh`: a script file, walked when the command line
		// wrote it (see writtenScript).
		if sc := w.p.writtenScript(knowledge.Value(operand)); sc != nil {
			w.runWritten(s, sc, d, env)
		}
		return
	}
	// `bash <<'EOF' … EOF` and `bash <<< '…'` run the script from stdin;
	// so does `bash -s ARGS`, whose operands are $1….
	if cflag || operand != nil && !sflag {
		return // a -c string that is not a literal
	}
	// A shell reading its script from stdin, as from a file, execs none
	// of its commands in place (see runWritten): `bash -s <<'EOF' &` is
	// bash until the script ends, and a kill of $! leaves its children.
	fed := w.nest.fed
	w.nest.fed = nil
	stdin := *d
	stdin.CTail = 0
	if word := stdinDoc(s.Redirs); word != nil {
		w.nest.starting.jobShell = w.jobShell(s)
		w.nested(word, &stdin, env, shNested)
	} else if fed != nil {
		w.nest.starting.jobShell = w.jobShell(s)
		w.nestedCode(fed.code, fed.offs, fed.quote, &stdin, env, shNested)
	}
}

// stdinDoc is the here-document or here-string among redirs that feeds
// fd 0, if any.
func stdinDoc(redirs []*syntax.Redirect) *syntax.Word {
	var doc *syntax.Word
	for _, rd := range redirs {
		if rd.N != nil && rd.N.Value != "0" {
			continue
		}
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			doc = rd.Hdoc
		case syntax.WordHdoc:
			doc = rd.Word
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			doc = nil // a later redirection of stdin wins
		}
	}
	return doc
}

// nestedEval walks eval's words as code run by the current shell.
func (w *walker) nestedEval(args []*syntax.Word, env fdtable.Table) {
	if w.nest.depth >= maxNested {
		return
	}
	code, offs, quote, ok := w.evalCode(args)
	if !ok {
		return
	}
	if w.sh.d.CompoundHoldsJob {
		// zsh: eval holds a job number while it runs, as a compound
		// does: `eval 'server &'; kill %1` names no job.
		defer w.leaveCompound(w.enterCompound())
	}
	w.nestedCode(code, offs, quote, w.sh.d, env, 0xff)
}

func (w *walker) nested(word *syntax.Word, d *dialect.Dialect, env fdtable.Table, kind shellKind) {
	code, offs, ok := knowledge.Literal(word)
	if !ok {
		return
	}
	w.nestedCode(code, offs, quoteOf(word), d, env, kind)
}

// quoteOf is the quoting a word's whole text sits in, for fixes inside it
// (see source.quote).
func quoteOf(word *syntax.Word) byte {
	if len(word.Parts) == 1 {
		switch word.Parts[0].(type) {
		case *syntax.SglQuoted:
			return '\''
		case *syntax.DblQuoted:
			return '"'
		}
	}
	return 0
}

// nestedCode walks code, whose bytes come from offs in the current source,
// as a script run by another shell d (kind) or by the current one (0xff).
func (w *walker) nestedCode(code string, offs []int, quote byte, d *dialect.Dialect, env fdtable.Table, kind shellKind) {
	start := w.nest.starting
	w.nest.starting = nestedStart{}
	jobShell, cut := start.jobShell, start.cut
	out := w.outFile
	defer func() { w.outFile = out }()
	f, err := w.p.ParseNested(code, d.Variant)
	var bad []int // (see badSubstsRead)
	if err != nil {
		// Read it as that shell does; what the shell refuses is checked
		// on that.
		f, _, err = dialect.Reread([]byte(code), d, err)
	}
	if err == nil {
		if pe := d.Refused(f, []byte(code)); pe != nil {
			err = pe
		}
	}
	if err != nil {
		f = nil // (a parser's partial tree is not what the shell runs)
		// bash, dash and mksh read the string a line at a time and
		// stop at the line they cannot parse: `sh -c 'a & b <(c)'`
		// runs nothing in dash, `sh -c $'a &\nb <(c)'` runs a. zsh
		// parses it whole first and runs nothing.
		f, bad = expansionsRead(w.p, []byte(code), d) // zsh: `zsh -c 'a & echo ${!x}'` runs a
		if f == nil && d.ParsesWholeC {
			return
		}
		if d.BashSyntaxStops {
			if bf, berr := w.p.ParseNested(code, syntax.LangBash); berr == nil {
				f, bad = badSubstsRead(w.p, []byte(code), bf, d)
			}
		}
		if f == nil {
			if f = parsedLines(w.p, code, d.Variant, err); f == nil {
				return
			}
		}
	}
	w.nest.nestedExecs = false
	if n := len(f.Stmts); n > 0 {
		ce, ok := f.Stmts[n-1].Cmd.(*syntax.CallExpr)
		w.nest.nestedExecs = ok && !f.Stmts[n-1].Background && execsSomething(ce)
	}
	src := &Source{Offs: w.mapOffs(offs), Text: []byte(code), File: f, Bad: bad}
	if w.src.Offs == nil {
		src.Quote = quote
	}
	savedSrc, savedSh, args, ppid := w.src, w.sh, w.fns.args, w.kills.ppidScript
	w.src = src
	w.nest.depth++
	if kind != 0xff {
		w.fns.args = start.args // a shell of its own: its $1… are its own
		w.sh = w.newShell(kind, savedSh.async)
		w.kills.ppidScript = nil
		if start.childOfScript {
			w.kills.ppidScript = w.sh // (see walk_ppidkill.go)
		}
		w.sh.d = d
		w.sh.errexit, w.sh.nounset = start.set.Errexit, start.set.Nounset
		src.script = true
		if w.sh.leads = start.leads; w.sh.leads {
			w.p.markInPlace(f.Stmts, d)
		}
	}
	if jobShell != nil && kind != 0xff {
		w.sh.process, jobShell.procD = jobShell, d
		defer w.jobShellDone(w.watchJobShell(jobShell, f, d, env))
	}
	if cut != nil && kind != 0xff {
		w.cutShellStarts(cut, f, d, env)
		defer func(saved *timeoutCut) { w.cut = saved }(w.cut)
		w.cut = cut
	}
	w.stmts(f.Stmts, env)
	if jobShell != nil && kind != 0xff && (len(w.sh.sigTraps) > 0 || len(w.sh.traps) > 0 && d.SignalRunsExitTrap) {
		jobShell.trapSh, w.sh.keep = w.sh, true
	}
	if kind != 0xff {
		w.endShell()
	}
	w.nest.depth--
	w.src, w.sh, w.fns.args, w.kills.ppidScript = savedSrc, savedSh, args, ppid
}

// parsedLines parses the lines of code before the one a parse error
// (err, from parsing code) is on, or returns nil. An error inside a
// compound command that starts on an earlier line (`if …; then x=(a b);
// fi`) stops the shell before that command: the lines before its start
// are the longest that parse.
func parsedLines(p *Pass, code string, lang syntax.LangVariant, err error) *syntax.File {
	off := -1
	var own *diag.ParseError
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &own):
		off = own.Offset
	case errors.As(err, &pe) && pe.Pos.IsValid():
		off = int(pe.Pos.Offset())
	case errors.As(err, &le) && le.Pos.IsValid():
		off = int(le.Pos.Offset())
	}
	if off < 0 {
		return nil
	}
	off = min(off, len(code))
	for start := strings.LastIndexByte(code[:off], '\n') + 1; start > 0; start = strings.LastIndexByte(code[:start-1], '\n') + 1 {
		if f, err := p.ParseNested(code[:start], lang); err == nil {
			return f
		}
	}
	return nil
}

// literalWithParams is literal for trap strings: a double-quoted "kill $pid"
// keeps its expansions as text, to be parsed as code (the variable is the
// same either way).
func literalWithParams(w *syntax.Word) (string, []int, bool) {
	if v, offs, ok := knowledge.Literal(w); ok {
		return v, offs, true
	}
	if len(w.Parts) != 1 {
		return "", nil, false
	}
	dq, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) == 0 {
		return "", nil, false
	}
	start := int(dq.Parts[0].Pos().Offset())
	end := int(dq.Parts[len(dq.Parts)-1].End().Offset())
	// Reconstruct the code from the parts' source text.
	var b strings.Builder
	offs := make([]int, 0, end-start+1)
	for _, p := range dq.Parts {
		src, ok := knowledge.Printed(p)
		if !ok {
			return "", nil, false
		}
		base := int(p.Pos().Offset())
		for i := 0; i < len(src); i++ {
			offs = append(offs, base+i)
		}
		b.WriteString(src)
	}
	offs = append(offs, end)
	return b.String(), offs, true
}

// runsLiteral reports whether the command is a shell or eval whose code is
// a literal the walk goes through: it lasts as long as that code, which the
// walk counts, and no longer.
func runsLiteral(r knowledge.Resolved) bool {
	if r.Timeout {
		return false
	}
	if r.Name == "eval" {
		return evalSpelled(r.Args)
	}
	if dialect.DialectOfProgram(r.Name) == nil {
		return false
	}
	script, _, _, _ := dialect.ShellArgs(r.Args)
	if script == nil {
		return false
	}
	_, _, ok := knowledge.Unquote(script, false)
	return ok
}

// runWritten walks the script file sc, which the command line wrote, as
// run by the shell d (`sh run.sh`, or `./run.sh` with its shebang). A
// shell that reads a file execs none of its commands in place: that is
// done for -c strings only.
func (w *walker) runWritten(s *syntax.Stmt, sc *script, d *dialect.Dialect, env fdtable.Table) {
	if w.nest.depth >= maxNested {
		return
	}
	file := *d
	file.CTail = 0
	w.nest.starting.jobShell = w.jobShell(s)
	w.nestedCode(sc.code, sc.offs, sc.quote, &file, env, shNested)
	w.nest.starting = nestedStart{}
}

// jobShell is the background job whose process is the shell the simple
// command s starts (`bash -c '…' &`), or nil.
func (w *walker) jobShell(s *syntax.Stmt) *Job {
	if j := w.job; j != nil && j.Stmt == s && j.Kind == JobSimple && !j.forks && j.sh == w.sh {
		return j
	}
	return nil
}

// runWrittenFile walks `./run.sh` (a path to a script the command line
// wrote) as its shebang's shell runs it; without one, the current shell
// runs it (bash, zsh and mksh in a child of their own; dash through sh).
func (w *walker) runWrittenFile(s *syntax.Stmt, r knowledge.Resolved, env fdtable.Table) bool {
	head := knowledge.WordLit(r.Head)
	if !strings.Contains(head, "/") {
		return false
	}
	sc := w.p.writtenScript(head)
	if sc == nil {
		return false
	}
	d := w.sh.d
	if l, ok := dialect.ShebangLang([]byte(sc.code)); ok {
		d = l.Dialect()
	}
	w.runWritten(s, sc, d, env)
	return true
}
