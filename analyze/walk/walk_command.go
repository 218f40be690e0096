package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// Compound commands in the current shell's foreground: blocks, subshells,
// if, loops, case, function declarations, and the child shell a subshell
// forks.

// command walks a compound command run in the foreground of the current shell.
func (w *walker) command(c syntax.Command, env fdtable.Table) fdtable.Table {
	switch c := c.(type) {
	case *syntax.Block:
		return w.stmts(c.Stmts, env)
	case *syntax.Subshell:
		w.forks++
		w.subshell(c.Stmts, env, dialect.FormParen)
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return w.andOr(c, env)
		}
		// The shell waits for the pipeline's reader; when that shell is
		// (part of) a background job, it is that job that waits, not the
		// caller (as for a $(…), see nodeSubsts).
		reader := fdtable.TBlock
		if w.sh.async {
			reader = fdtable.TJobRead
		}
		w.forks++
		w.pipeline(c, env, reader, true)
	case *syntax.IfClause:
		return w.ifClause(c, env)
	case *syntax.WhileClause:
		follow := w.following(c)   // (see walk_breakkills.go)
		sh, on := w.errexitOff()   // (see walk_errexit.go)
		env = w.stmts(c.Cond, env) // (the condition runs at least once)
		errexitOn(sh, on)
		if neverLoops(c) || w.stopped() || w.skipsLoop(c) {
			break // while false; do …; done: the body never runs
		}
		w.noteEndlessLoop(c) // (see walk_endless.go)
		w.slow++
		g, guarded := loopGuard(c)
		enters := w.entersLoop(c)
		round := func() {}
		if enters {
			round = w.cutLoopRound() // (see walk_timeoutpipe.go)
		}
		out := w.firstRound(c.Do, env, enters, g, guarded, follow) // (see walk_flow.go)
		round()
		// A second round, as for a for loop (see repeats): how many a
		// while or until loop runs is not known.
		w.laterRound(c.Cond, c.Do, out, false, g, guarded)
		if pid := w.pollsGone(c); pid != nil {
			w.wait([]*syntax.Word{pid}, c) // while kill -0 $P; do sleep 1; done
		}
		return out
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok && len(w.src.Bad) > 0 && w.badSubst(wi.Items...) {
			w.fatal() // dash: for p in "${pids[@]}"
			break
		}
		loop, follow := c.Loop, w.following(c)
		if wi, ok := loop.(*syntax.WordIter); ok {
			if items := w.braceItems(wi.Items); len(items) != len(wi.Items) {
				cp := *wi // for i in {1..30}: the words the shell makes of it (see braces.go)
				cp.Items = items
				loop = &cp
			}
		}
		w.loopHeader(loop, env)
		sure, again := runsOnce(loop), repeats(loop)
		counted := sure // (a list of literal words runs a round each)
		if wi, ok := loop.(*syntax.WordIter); ok {
			if n, known := w.loopArgs(wi); known {
				if n == 0 {
					break // for p in "$@" of a call without arguments
				}
				sure, again, counted = true, n > 1, true
			}
		}
		if cl, ok := loop.(*syntax.CStyleLoop); ok {
			n, known := cLoopRounds(cl)
			if known && n == 0 {
				break // for ((i=5; i<2; i++)): the body never runs
			}
			if known {
				sure, again, counted = true, n > 1, true
			}
		}
		g, guarded := loopGuard(c)
		if wi, ok := loop.(*syntax.WordIter); ok && runsOnce(loop) {
			w.wordLoops = append(w.wordLoops, wi)
			defer func() { w.wordLoops = w.wordLoops[:len(w.wordLoops)-1] }()
		}
		out := w.firstRound(c.Do, env, sure, g, guarded, follow)
		if again {
			// A second round: what the first started is still running, and
			// $! now names the second's job (`for s in a b; do ./$s & done;
			// kill $!` leaves a). Rounds after it repeat the second, and
			// what it saves in a pid variable replaces the first's.
			w.laterRound(nil, c.Do, out, counted, g, guarded)
		}
		return out
	case *syntax.CaseClause:
		if len(w.src.Bad) > 0 && w.badSubst(c.Word) {
			w.fatal() // dash: case ${x:0:1} in
			break
		}
		w.words([]*syntax.Word{c.Word}, env)
		if its, known := w.caseBranch(c, true); known {
			for _, it := range its {
				env = w.stmts(it.Stmts, env) // the branch that runs, and those it falls through to
			}
			break
		}
		b := w.branches()
		outer := w.apart
		var ended []*Job
		if w.mayEndJobs(c) {
			ended = w.caseEnds(c, 0)
		}
		for _, it := range c.Items {
			b.start()
			n := len(w.p.Jobs)
			if w.roundTakes(c.Word, it) {
				w.branching++ // (a later round of the loop takes it for sure)
				w.stmts(it.Stmts, env)
				w.branching--
			} else {
				m := w.branchIn(ended, guard{}, false)
				w.stmts(it.Stmts, env)
				w.branchOut(m)
			}
			if it.Op == syntax.Break {
				w.apartFrom(n) // ;& and ;;& go on into the next branch
			}
			b.end()
		}
		w.apart = outer
		b.done(true)
	case *syntax.FuncDecl:
		// The body runs when the function is called; walking it where it is
		// declared reports what it starts once, at the place to fix it.
		if c.Name == nil { // zsh's anonymous function, run where it stands
			if b, ok := c.Body.Cmd.(*syntax.Block); ok && len(c.Body.Redirs) == 0 && w.sh.d.CompoundHoldsJob {
				// zsh runs `() { … }` without arguments or
				// redirections as a simple command: its braces hold no
				// job number, and `() { server & }; kill %1` stops
				// the server (with `>f` or arguments after it they do,
				// as a function call's; checked under zsh 5.9 with
				// jobs after each).
				w.anonFunc(func() { w.stmts(b.Stmts, env) })
				break
			}
			w.anonFunc(func() { w.stmt(c.Body, env) })
			break
		}
		w.p.define(c.Name.Value)
		prev := w.fns.funcs[c.Name.Value]
		w.defineFunc(c.Name.Value, &function{body: c.Body, env: env, src: w.src, other: w.stillDefined(prev, c.Body), kshStyle: c.RsrvWord && !c.Parens})
		w.trapFunc(c) // zsh: TRAPTERM() { kill $c; }
		w.ends.exitFuncs = w.ends.exitFuncs || mentionsExit(w.src.Text, c.Body, w.sh.d)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, env)
		}
	case *syntax.DeclClause:
		if v := c.Variant.Value; (v == "export" || v == "readonly") && w.sh.d.ExportFails(declOptions(c)) && w.fatal() {
			break // mksh: export -f f
		}
		w.declareLocal(c)
		w.noteLocalOpts(c) // local -
		for _, a := range c.Args {
			w.assign(a, env)
		}
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		w.nodeSubsts(c, env)
	}
	return env
}

// subshell walks statements in a child shell forked as form: jobs it does
// not wait for are orphaned when it exits.
func (w *walker) subshell(list []*syntax.Stmt, env fdtable.Table, form dialect.SubshellForm) {
	saved, out, args := w.sh, w.outFile, w.fns.args
	w.sh = w.newShell(shSubshell, saved.async)
	defer w.cutFork(saved, w.sh)() // (see walk_timeoutcut.go)
	w.inheritJobs(saved, form)
	if form != dialect.FormProcSubst {
		w.fgSubshell(saved, list, nil, form) // (see walk_fgtails.go)
	}
	if form == dialect.FormSubst && w.sh.d.SubstDropsErrexit {
		w.sh.errexit = false
	}
	w.stmts(list, env)
	w.endShell()
	w.sh, w.outFile, w.fns.args = saved, out, args // (a shift there was its own)
	w.forkKilled()
}
