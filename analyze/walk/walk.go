package walk

import (
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// walker walks statements in execution order, tracking descriptors and jobs.
type walker struct {
	p   *Pass
	src *Source
	sh  *shell
	// Job is the background job whose body is being walked, if any.
	job *Job
	// slow counts the commands walked that may take a while (not a quick
	// builtin, or a loop); bounded adds up the literal durations of the
	// commands that have one (sleep 0.2, timeout 0.5 cmd). A job whose walk
	// does not move slow, and moves bounded by less than briefJob, ends
	// (almost) at once and holds nothing worth reporting.
	slow    int
	bounded time.Duration
	free    []*shell // ended shells, for newShell to reuse
	// printed are the jobs whose $! an echo or printf wrote into the
	// command substitution being walked: `pid=$(server & echo $!)`.
	printed []*Job
	// cond > 0 while the walk is in a command that runs only if an
	// earlier one succeeded or failed (the right of && or ||): a kill or
	// wait there may not happen.
	cond int
	// scopes are the ids of the maybes cond counts, innermost last, and
	// scopeGen the last id given (see walk_scope.go).
	scopes   []int
	scopeGen int
	// guards are the guards (see guard) whose && or || the walk is on
	// the right of, each with the cond it set: a kill there of what the
	// guard asks about runs as surely as the guard's command.
	guards []condGuard
	// saved are the caller's descriptors the current shell keeps saved
	// copies of, by the fd they were saved from (see walker.saving).
	saved fdtable.Table
	// savedTen: the current shell holds a saved copy on fd 10, the
	// first one it made (see dialect.childrenKeepFirstSaved).
	savedTen bool
	// redirOpen has a bit for each descriptor above 2 that the
	// redirections of the compounds and function calls being walked
	// opened, in the dialects whose exec makes its own close-on-exec
	// (mksh): a program started inside `{ …; } 3>&1` keeps those (see
	// fdTable.closeExecFds).
	redirOpen uint16
	// outFile is the file, by literal name, that an enclosing statement's
	// redirection sent the shell's stdout to (`(server & echo $!) >
	// run.pid`, `sh -c '… & echo $!' > run.pid`), for an echo of a pid
	// there without a redirection of its own (see writePids); "" for
	// none or one the walk cannot name.
	outFile string
	// cut watches the shell a timeout runs for the foreground program
	// its signal leaves running (see walk_timeoutcut.go).
	cut *timeoutCut
	// runnerCmd: the simple command about to be walked is one a program
	// runs as its child (see runCommands), during that program.
	runnerCmd bool
	// worker is the process substitution whose worker is being walked,
	// if any (see walker.procSubst).
	worker *worker
	// next is the statement of a list being walked and what follows it
	// there (see walker.following).
	next loopFollow
	// quits is the pipe of a foreground pipeline whose reader may stop
	// early (grep -m1, grep -q, head, read), while the elements that
	// write into it are walked: GNU tail -f started there as a job,
	// `( tail -f log & ) | grep -m1 ready`, exits as soon as the reader
	// is gone (see followsIntoPipe), so it ends with the pipeline.
	quits fdtable.Target
	// consumer is the simple command whose words are being walked, if
	// any: the command a process substitution there serves (see
	// walker.procSubst).
	consumer *syntax.CallExpr
	// redirStmt is the statement whose redirections' words are being
	// walked: a process substitution that is one's target is waited for
	// where another is not (see walker.substWaited).
	redirStmt *syntax.Stmt
	// apart are the jobs started by the branches of an if or case walked
	// before the one being walked: only one branch runs, so a kill or
	// wait there cannot reach them (see walker.apartFrom).
	apart []*Job
	// again counts the loops whose second round is being walked. That
	// round stands for every later one, whose branches may stop what
	// another branch started the round before (`for a in start stop; do
	// case $a in start) …; stop) …; esac; done`): apart stays as it is.
	again int
	// branching counts the branches of an if or case, and the first
	// rounds of loops, being walked, that may not run (see replacesPid).
	branching int
	// forks counts the forks the shells walked wait for in their
	// foreground (a pipeline, a ( ) subshell, a $(…)): each gives a job
	// started before it the time to set up its signals (see job.startForks).
	forks int
	// wordLoops are the for loops over literal words whose bodies are
	// being walked, innermost last (see roundTakes).
	wordLoops []*syntax.WordIter
	// prev is the statement walked before the current one in its list,
	// whose status $? holds (see prevStatus); nil at a list's start.
	prev *syntax.Stmt
	// kills: the kill commands the walk is inside of, and how their
	// signal travels (kill*.go, walk_forkkill.go, walk_ppidkill.go).
	kills killState
	// traps: the trap actions being walked and the EXIT hooks set so
	// far (walk_trap.go, walk_exittraps.go, kill_selftrap.go, zsh_*.go).
	traps trapState
	// ends: the statements that may end the shell, and what the walk
	// knows after them (exit_state.go).
	ends exitState
	// fns: the functions declared and being called (func_state.go).
	fns funcState
	// nest: the nested shells (-c strings, ssh commands, scripts fed on
	// stdin) being walked (nested_state.go).
	nest nestedState
}

// nestedStart is what a command that starts a nested shell (`bash -c`,
// `sh run.sh`, `script -c`, a timeout's shell) knows of it before its
// script is walked. The command sets it, nestedCode takes it (leaving it
// zero), and the command clears it when it is done, so that nothing of it
// reaches a later nested shell whose script was never walked.
type nestedStart struct {
	leads    bool               // it leads its process group (see shell.leads)
	jobShell *Job               // it is this background job's process (see walk_shelljob.go)
	set      dialect.ShellFlags // what its arguments set for its script (see shellopts.go)
	args     *argFrame          // its positional parameters (see walk_shellargs.go)
	// childOfScript: its parent is the script (see walk_ppidkill.go).
	childOfScript bool
	// cut is the watch of the timeout that runs it (see walk_timeoutcut.go).
	cut *timeoutCut
}

const maxNested = 8

// coprocWord reads zsh's `coproc cmd`, which mvdan.cc/sh parses as a
// call of a command named coproc, as the coprocess it is (a simple
// command only: zsh's `coproc { … }` does not parse as zsh there).
func (w *walker) coprocWord(s *syntax.Stmt) *syntax.CoprocClause {
	if !w.sh.d.CoprocWord || s.Background {
		return nil
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "coproc" {
		return nil
	}
	body := &syntax.Stmt{Position: ce.Args[1].Pos(), Cmd: &syntax.CallExpr{Args: ce.Args[1:]}}
	return &syntax.CoprocClause{Coproc: ce.Args[0].Pos(), Stmt: body}
}

// idleCommand reports whether a simple command is one that finishes at
// once without reading the files it is given (a quick builtin or instant
// program): a process substitution in its words or redirections is left
// to run on its own.
func idleCommand(ce *syntax.CallExpr) bool {
	if len(ce.Args) == 0 {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	return len(r.All) > 0 && r.Kind&knowledge.KQuick != 0 && !r.Wrapped
}

// Stmt walks one statement and returns the descriptors the shell has after
// it (only `exec` redirections change them).
func (w *walker) stmt(s *syntax.Stmt, env fdtable.Table) fdtable.Table {
	w.fns.bodyLooks = 0 // (see lookahead.go)
	if w.expandAlias(s, env) {
		return env // `dev` with alias dev='server &'
	}
	if len(s.Redirs) > 0 && badDup(s.Redirs, w.sh.d) {
		return w.failedDup(s, env) // dash, mksh: `cmd >&/dev/null` never runs cmd
	}
	if s.Background || s.Coprocess || s.Disown {
		if c, ok := s.Cmd.(*syntax.BinaryCmd); ok && w.sh.d.BgLastPipeline && !s.Coprocess && (c.Op == syntax.AndStmt || c.Op == syntax.OrStmt) {
			return w.andOrLastInBackground(s, c, env)
		}
		if inner := w.bareBraces(s); inner != nil {
			return w.stmt(inner, env)
		}
		if out := w.outFile; out != "" && len(s.Redirs) > 0 {
			// A job writes its pids asynchronously: no pid file of its own
			// is followed (see outFile).
			w.outFile = ""
			w.startJob(s, env)
			w.outFile = out
			return env
		}
		w.startJob(s, env)
		return env
	}
	if cc, ok := s.Cmd.(*syntax.CoprocClause); ok {
		w.startCoproc(s, cc, env)
		return env
	}
	if cc := w.coprocWord(s); cc != nil {
		w.startCoproc(s, cc, env)
		return env
	}
	if (w.assignsReadonly(s) || w.equalsFails(s) || w.assignsIndexZero(s)) && w.fatal() {
		// status=$?, [ "$1" == ci ], pids[0]=$! in zsh: the shell ends there (zsh
		// without its EXIT traps)
		w.sh.skipTraps = w.sh.d.NounsetSkipsTraps
		return env
	}
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	if isCall && w.sh.nounset && w.expandsUnset(s, ce) && w.fatal() {
		// set -u: the command never runs, the shell ends (zsh without
		// its EXIT traps)
		w.sh.skipTraps = w.sh.d.NounsetSkipsTraps
		return env
	}
	inner := env.Apply(s.Redirs)
	out0 := w.outFile
	if len(s.Redirs) > 0 {
		var truncates bool
		w.outFile, truncates = w.stdoutTo(s.Redirs, out0)
		if truncates && !isCall {
			w.openPidFile(w.outFile)
		}
	}
	// The simple command whose words are walked, for the process
	// substitutions there (restored without a defer: stmt is the
	// hottest function of the walk, and has too many returns for an
	// open-coded one).
	savedConsumer, savedRedirStmt := w.consumer, w.redirStmt
	w.consumer, w.redirStmt = nil, s
	if isCall {
		w.consumer = ce
	}
	w.words(redirWords(s.Redirs), env)
	var out fdtable.Table
	switch {
	case isCall:
		out = w.simpleStmt(s, ce, env, inner)
	case w.sh.d.CompoundHoldsJob && holdsJob(s.Cmd):
		restore := w.enterCompound()
		out = w.compoundStmt(s, env, inner)
		w.leaveCompound(restore)
	default:
		out = w.compoundStmt(s, env, inner)
	}
	w.consumer, w.redirStmt = savedConsumer, savedRedirStmt
	if !isCall || len(ce.Args) != 1 || knowledge.WordLit(ce.Args[0]) != "exec" {
		w.outFile = out0 // (exec >f: the shell's stdout is f from now on)
	}
	return out
}

// simpleStmt walks a simple command run in the foreground, whose
// redirections take env to inner.
func (w *walker) simpleStmt(s *syntax.Stmt, ce *syntax.CallExpr, env, inner fdtable.Table) fdtable.Table {
	w.fns.funcEnv = nil
	if len(w.fns.calling) > 0 {
		w.declareLocal(ce) // dash: local is a command
		w.noteLocalOpts(ce)
	}
	w.elementWord(ce) // dash: pids[0]=$! is a command
	r := w.call(s, ce, env, inner)
	if name, sc := writtenScript(s); sc != nil {
		w.p.write(name, sc)
	}
	if r.Exec && len(r.All) > 0 && w.sureCond() == 0 && !(w.sh.d.ExecBuiltinRuns && knowledge.Builtins.Has(r.Name) && !strings.Contains(knowledge.WordLit(r.Head), "/")) {
		w.sh.replaced = true
	}
	if len(r.All) == 0 && w.execs(ce) {
		// exec "$@": a program the walk cannot name replaces the shell.
		if w.sureCond() == 0 {
			w.sh.replaced = true
		}
		return env
	}
	if fe := w.fns.funcEnv; fe != nil {
		w.fns.funcEnv = nil
		return callLeft(env, inner, *fe, s.Redirs)
	}
	if r.Exec && len(r.All) == 0 {
		// exec >log 2>&1: the shell's own descriptors change; in the
		// subshell of a job, so does what the job holds.
		if j := w.job; j != nil && j.sh == w.sh && j.Kind == JobCompound {
			j.Fds = inner
		}
		w.execKeeps(s.Redirs, env)
		w.redirOpen &^= fdtable.RedirMask(s.Redirs) // (mksh: exec's are close-on-exec)
		return inner
	}
	return env
}

// compoundStmt walks a compound command run in the foreground, whose
// redirections take env to inner.
func (w *walker) compoundStmt(s *syntax.Stmt, env, inner fdtable.Table) fdtable.Table {
	if s.Negated && w.sh.errexit {
		sh, on := w.errexitOff() // ! { …; }: set -e ends nothing inside
		env = w.compoundStmt(s, env, inner)
		errexitOn(sh, on)
		return env
	}
	if len(s.Redirs) == 0 {
		// A group, an and-or list, an if, a loop or a case runs in the
		// current shell: an exec in what surely runs of it redirects the
		// shell for good (a subshell's stays in the subshell).
		return w.command(s.Cmd, env)
	}
	if _, sub := s.Cmd.(*syntax.Subshell); sub && w.sh.d.KeepsSaved&dialect.SavedCompound == 0 {
		// Forked first: the redirections are the child's own (mksh's
		// child saves them all the same).
		w.command(s.Cmd, inner)
		return env
	}
	// A group, an if, a case or a loop runs in the current shell: an
	// exec in it redirects the shell for good but for the descriptors
	// the compound's own redirections set, which come back when it ends
	// (`case x in x) exec >/dev/null;; esac 2>/dev/null` leaves stdout
	// on /dev/null and stderr the caller's, `{ exec >/dev/null; } >log`
	// stdout the caller's; checked under bash, zsh, dash and mksh, as a
	// random program found).
	var after fdtable.Table
	w.saving(s.Redirs, env, inner, func() { after = w.command(s.Cmd, inner) })
	return callLeft(env, inner, after, s.Redirs)
}
