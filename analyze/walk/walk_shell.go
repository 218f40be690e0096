package walk

import (
	"slices"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// shellKind says what happens to a shell's unwaited jobs when it ends.
type shellKind uint8

const (
	shTop      shellKind = iota // the script itself: unwaited jobs outlive it
	shNested                    // bash -c '…' inside the script: the same
	shSubshell                  // ( ), $( ), a pipeline element, a job body: unwaited jobs are orphaned
)

// shell is one shell process as the walk goes through it in execution order.
type shell struct {
	kind  shellKind
	async bool // the whole shell runs as (part of) a background job
	jobs  []*Job
	// inherited counts the jobs at the start of jobs that are the
	// parent's, kept by a subshell (see jobs_inherited.go).
	inherited int
	last      *Job              // $!
	alt       []*Job            // after if or case: other jobs $! may be
	pidVars   map[string][]*Job // variables that hold a $!
	// arrays are the pid variables assigned as arrays (pids+=($!)): their
	// jobs are the elements, in order (see pidElement).
	arrays map[string]bool
	// joined are the pid variables built as one string (pids="$pids $!"):
	// without word splitting (zsh) `kill $pids` gets one bad argument.
	joined map[string]bool
	// empty are the variables that hold nothing for sure: bound only to
	// what prints nothing (`J=$(jobs -p)` in zsh and dash, a loop over
	// it), so `kill $J` is kill without a pid.
	empty map[string]bool
	// statusVars are the variables that hold the status a command left,
	// by that command (`status=$?`; see status_vars.go).
	statusVars map[string]*syntax.Stmt
	traps      []trapBody // EXIT traps, run when the shell ends
	// errTraps is the ERR trap (zsh's ZERR too), run after a command that
	// fails where set -e would end the shell (see walk_errtrap.go).
	errTraps []trapBody
	// monitor: set -m is on. Each job then leads its own process group,
	// so `kill -- -$!` reaches it and fg waits for it.
	monitor bool
	// d is the program that runs this shell (a subshell is a fork of its
	// parent: the same program; a nested `zsh -c` is set by nestedCode).
	d *dialect.Dialect
	// held is the job number a compound command holds while the shell
	// runs it (dialect.compoundHoldsJob); 0: none.
	held int
	// maxNum is the highest job number the shell gave (see nextJobNum).
	maxNum int
	// leads: the shell's own process leads a process group (the shell the
	// caller started, with CallerGroupLeader, or a shell that replaced
	// it), so what it execs in place leads it too.
	leads bool
	// kept is the copy of a caller's descriptor that mksh's exec left on
	// fd 10 (see dialect.execKeepsFirstSaved), by the fd it was saved
	// from; keptTen: fd 10 is taken by such a copy. Subshells inherit both.
	kept    fdtable.Table
	keptTen bool
	// ignored are the signals a `trap '' SIG` made the shell ignore, which
	// its jobs inherit (see dialect.jobsKeepIgnored).
	ignored dialect.SigSet
	// replaced: the shell exec'd a program in place of itself, for sure
	// (not behind && or ||): its EXIT traps never run.
	replaced bool
	// sigTraps are the traps on signals a kill sends (TERM, HUP…) with
	// an action, which a kill of the job this shell runs walks.
	sigTraps []sigTrap
	// aliases are the aliases the shell defined, by name, and
	// expandAliases where bash's `shopt -s expand_aliases` ran (see
	// walk_alias.go). A subshell inherits both.
	aliases       map[string]aliasDef
	expandAliases aliasDef
	// keep: a job holds on to the shell (job.trapSh); endShell does not
	// hand it out again.
	keep bool
	// process: the shell is the process of this background job (`bash -c
	// '…' &`, `sh -s <<EOF &`): what its foreground runs is the job's, and
	// a kill of $! reaches the shell itself (see killSubshell).
	process *Job
	// nounset: set -u is on for sure: expanding a variable that is
	// unset ends the shell (see walker.expandsUnset).
	nounset bool
	// errexit: set -e is on for sure (see walker.errexitEnds).
	errexit bool
	// pipefail: set -o pipefail is on for sure: a pipeline fails when
	// any of its elements does (see walker.pipeFails).
	pipefail bool
	// wordSplit: zsh's SH_WORD_SPLIT is on for sure (see
	// walker.splitsWords).
	wordSplit bool
	// kshArrays: zsh's KSH_ARRAYS is on for sure (`setopt ksharrays`,
	// `emulate sh`, `emulate ksh`): arrays count from 0 as in bash, and a
	// bare $pids is the first element (see walker.arraysFromOne).
	// posixTraps: zsh's POSIX_TRAPS is on for sure: an EXIT trap set in a
	// function is the shell's (see walker.funcExitTraps).
	kshArrays, posixTraps bool
	// localTraps: zsh's LOCAL_TRAPS is on (see zsh_functraps.go).
	localTraps bool
	// skipTraps: the shell dies without running its EXIT traps (zsh on
	// an unset variable under set -u).
	skipTraps bool
	// execsElem: the shell is the fork of a pipeline element that is one
	// simple command, which the fork execs: no shell of its own stays to
	// hold descriptors while the program runs (see walker.fgLong).
	execsElem bool
	// inPlace are the statements a foreground subshell of the script
	// runs by exec'ing them in place of itself (see walk_fgtails.go), and
	// scriptChild says that its process is the script's own child: a
	// shell it runs in such a statement has the script for its $PPID.
	inPlace      []*syntax.Stmt
	scriptChild  bool
	inPlaceKnown bool
	// fgBody, fgElem and fgForm are the list (or the pipeline element) such
	// a subshell runs, and as what (see inPlaceOf).
	fgBody []*syntax.Stmt
	fgElem *syntax.Stmt
	fgForm dialect.SubshellForm
	// ended: an error ended this subshell or nested shell for sure (see
	// walker.fatal); the rest of its code never runs.
	ended bool
	// outerFuncs are the functions of the parent shell, which a subshell
	// that defined or removed one of its own (ownFuncs) puts back when it
	// ends (see walk_funcscope.go).
	outerFuncs map[string]*function
	ownFuncs   bool
	// maybes is how deep in maybes the walk was when the shell started
	// (see walker.surelyRuns): what a subshell in an if branch runs first
	// runs for sure once the subshell runs.
	maybes maybes
}

// maybes counts the maybes the walk is in: behind && or || (cond), in a
// branch or a first round of a loop (branching), in a later round (again).
type maybes struct{ cond, branching, again int }

// sigTrap is a trap on the signals sigs (see sigBit) and its action.
type sigTrap struct {
	sigs dialect.SigSet
	trapBody
	// fn: the trap is a function (zsh's TRAPTERM; see zsh_trapfuncs.go),
	// which a subshell keeps. ends: it returns a status other than 0,
	// after which the shell acts as the signal had not been trapped and
	// ends.
	fn, ends bool
}

// enterCompound notes that the shell starts a compound command and
// returns what to restore when it ends: in zsh the outermost one holds a
// job number while it runs.
func (w *walker) enterCompound() (restore int) {
	restore = w.sh.held
	if w.sh.d.CompoundHoldsJob && restore == 0 {
		w.sh.held = w.nextJobNum()
	}
	return restore
}

// leaveCompound ends what enterCompound started.
func (w *walker) leaveCompound(restore int) { w.sh.held = restore }

// holdsJob reports whether a command is a compound that holds a job
// number while it runs (dialect.compoundHoldsJob).
func holdsJob(c syntax.Command) bool {
	switch c := c.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
		return true
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	}
	return false
}

type trapBody struct {
	code string // the trap's command string, parsed when the shell ends
	offs []int  // its offsets in the outer source
	// set: the string was double-quoted, so its $! was expanded when the
	// trap was set (last); in a single-quoted one $! is the job started
	// last before the shell ends: `trap 'kill $!' EXIT; server &` stops
	// the server.
	set  bool
	last *Job
	// vars: in a set (double-quoted) action, the pid variables it
	// expands, as they were then (see trap_vars.go).
	vars []trapVar
	// region is the exit region where the trap was set (see
	// walker.exitRegion): an exit taken before it ran the traps before
	// it (see trapReaches).
	region int
	// maybe: the trap was set behind a && or ||, in a branch or after a
	// return that may have been taken: it may not be in force.
	maybe bool
	// posix: an EXIT trap a function set under zsh's POSIX_TRAPS, which is
	// the shell's (see zsh_functraps.go).
	posix bool
}

// endShell runs the shell's EXIT traps and orphans what a subshell leaves.
func (w *walker) endShell() {
	sh := w.sh
	if !sh.replaced && !sh.skipTraps {
		w.runTraps(sh.traps) // exec'd away, none runs
		if name := sh.d.ExitTrapFunc; name != "" && sh.kind == shTop && w.fns.funcs[name] != nil {
			w.callFunc(name, nil, fdtable.Table{}) // zsh: TRAPEXIT() { kill $pid; }
		}
		if name := sh.d.ExitHook; name != "" && sh.kind == shTop && w.fns.funcs[name] != nil && !w.execsProgramInPlace() {
			w.callFunc(name, nil, fdtable.Table{}) // zshexit() { kill $pid; }, unless the tail was exec'd
		}
		if sh.kind == shTop && len(w.traps.exitHooks) > 0 && !w.execsProgramInPlace() {
			w.runExitHooks() // zshexit_functions+=(cleanup)
		}
	}
	if sh.kind == shSubshell {
		for _, j := range sh.own() {
			if !j.Resolved() && j.Daemon == "" {
				j.Orphaned = true // (a daemon left on its own: SG2008)
			}
		}
	}
	w.leaveFuncs(sh)
	if sh.kind != shTop && !sh.keep {
		w.free = append(w.free, sh) // the caller restores its own shell next
	}
}

// runTraps walks the EXIT traps of the current shell as it runs them.
func (w *walker) runTraps(traps []trapBody) {
	sh := w.sh
	for _, t := range traps {
		if len(sh.jobs) == 0 && sh.last == nil && len(sh.pidVars) == 0 && !slices.ContainsFunc(w.p.Jobs, (*Job).orphanLeft) {
			// nothing for a kill or wait in the trap to reach (a
			// subshell's trap reaches the jobs of its parent that $!
			// and pid variables name; any trap what a subshell or a
			// nested shell left running, by a pid file or by name:
			// `trap 'kill $(cat run.pid)' EXIT; (server & echo $! >
			// run.pid)`, `sh -c 'server >log 2>&1 &'; trap 'pkill -f
			// server' EXIT`)
			break
		}
		f, err := w.p.ParseNested(t.code, sh.d.Variant)
		if err != nil {
			continue
		}
		savedSrc := w.src
		w.src = &Source{Offs: t.offs, Text: []byte(t.code), File: f}
		savedLast := sh.last
		if t.set {
			sh.last = t.last
		}
		restore := sh.bindTrapVars(t.vars)
		savedLists, savedTrap := w.traps.trapLists, w.traps.endTrap
		w.traps.trapLists, w.traps.endTrap = w.trapListsOf(f.Stmts), &t
		w.stmts(f.Stmts, fdtable.Table{})
		w.traps.trapLists, w.traps.endTrap = savedLists, savedTrap
		restore()
		sh.last = savedLast
		w.src = savedSrc
	}
}

// mark notes a position a rule reports. What happens on another machine
// (an ssh command string) does not outlive anything here, so it is not marked.
func (w *walker) mark(m mark) {
	if w.nest.remote == 0 {
		w.p.Marks = append(w.p.Marks, m)
	}
}

// execsProgramInPlace reports whether the shell may exec a program as the
// last command of its -c string (a builtin or a function runs in it).
func (w *walker) execsProgramInPlace() bool {
	for _, s := range w.p.inPlaceStmts() {
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok {
			if r := w.p.resolveCall(ce); r.Name != "" && !knowledge.Builtins.Has(r.Name) && w.fns.funcs[r.Name] == nil {
				return true
			}
		}
	}
	return false
}

// endsWithShell counts as brief a job the script's own statements started
// whose commands all have literal durations, and that ends within
// briefJob of the shell because the script sleeps for sure after it
// (slept: the top-level sleeps before the end, counted from the start of
// the script; job.slept: those before the job): `(sleep 2; echo ready) &
// sleep 3` holds nothing once the shell exits. Only sleeps that run for
// sure count, so the shell's time after the job is at least that; a job
// started inside another job starts at a time this does not know.
func endsWithShell(jobs []*Job, slept time.Duration) {
	for _, j := range jobs {
		if !j.inJob && j.timed && !j.Quick && j.dur-(slept-j.slept) < knowledge.BriefJob {
			j.Quick = true
		}
	}
}

// sureSleep is how long a top-level statement surely sleeps: a foreground
// `sleep N`, alone or first in an and-or list (`sleep 2 && curl …`).
func sureSleep(s *syntax.Stmt) time.Duration {
	for !s.Background && !s.Coprocess && !s.Disown && !s.Negated && len(s.Redirs) == 0 {
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
				return 0
			}
			s = c.X
			continue
		case *syntax.CallExpr:
			if len(c.Assigns) == 0 && len(c.Args) > 1 && knowledge.WordLit(c.Args[0]) == "sleep" {
				d, _ := knowledge.SleepFor(c.Args[1:])
				return d
			}
		}
		return 0
	}
	return 0
}

// setArray records that the shell's variable name is an array.
func (sh *shell) setArray(name string) {
	if sh.arrays == nil {
		sh.arrays = map[string]bool{}
	}
	sh.arrays[name] = true
}

// setEmpty records whether the variable name holds nothing for sure.
func (sh *shell) setEmpty(name string, empty bool) {
	if !empty {
		delete(sh.empty, name)
		return
	}
	if sh.empty == nil {
		sh.empty = map[string]bool{}
	}
	sh.empty[name] = true
}
