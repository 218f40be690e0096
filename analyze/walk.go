package analyze

import (
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// jobKind says how bash runs a job, which decides what `kill $!` reaches
// and which fixes apply.
type jobKind uint8

const (
	// jobSimple is one program: bash forks and the child execs it, so the
	// job's pid is the program's (also `(cmd) &`, which bash execs in place).
	jobSimple jobKind = iota
	// jobCompound is an and-or list, a subshell, a group, a loop…: bash
	// forks a subshell that runs the parts and waits for each in turn.
	jobCompound
	// jobPipeline is a pipeline: one process per element.
	jobPipeline
	// jobCoproc is a coprocess: its stdin and stdout are pipes to the shell.
	jobCoproc
	// jobForked is started by a foreground command that forks and returns
	// (setsid -f): the shell has no handle on it at all.
	jobForked
)

// job is something that runs asynchronously to the shell that started it.
type job struct {
	stmt  *syntax.Stmt
	src   *source
	start int // outer offsets of the statement, including the & that starts it
	end   int
	kind  jobKind
	fds   fdTable // what the job's own process holds open
	// tail is the last simple command of a compound job when it is in tail
	// position (nothing in the job runs after it), for the tail-exec fix.
	tail *syntax.Stmt
	// inNested: the job is inside a `bash -c` or eval string.
	inNested bool
	// topLevel: the statement is a direct statement of the outer script.
	topLevel bool

	nohup, setsid, coproc bool
	disowned              bool // removed from the job table: wait no longer waits for it
	orphaned              bool // started in a subshell that exited without waiting for it
	waited, killed        bool
	quick                 bool // a builtin that finishes at once
	trap                  bool // the job's body sets a trap, which exec would skip
	remote                bool // runs on another machine (ssh): only what it holds matters here
	// argv is the command line of a one-process job, as pkill -f sees it
	// ("" for a word that is not a literal); nil for other jobs.
	argv []string
	// sh is the subshell that runs the job's body, while it is walked.
	sh *shell
	// forks: the job's process is a subshell that runs its commands as
	// children (a function, a { } coprocess): a signal to $! does not
	// reach them.
	forks bool
	// condEnd: a kill or wait that would end it runs only if an earlier
	// command succeeds (or fails): `curl … && kill $!`.
	condEnd bool
	// dur is the sum of the literal durations of its commands (see
	// walker.bounded); it only means something for a quick job.
	dur time.Duration
	// subshellGone: a compound job's subshell was killed; its last
	// command goes on with its own descriptors (fds).
	subshellGone bool
}

// text is the job's command as bash records it in its job table (what
// `%name` and `%?name` are matched against): the statement without its &.
func (j *job) text() string {
	t := j.src.text[j.stmt.Pos().Offset():j.stmt.End().Offset()]
	return strings.TrimRight(strings.TrimSpace(string(t)), "&")
}

// resolved reports whether the shell waits for or kills the job before it exits.
func (j *job) resolved() bool { return j.waited || j.killed }

// escapes reports whether a mechanism rule (nohup, setsid, disown, double
// fork, coproc) already describes how the job outlives the shell.
func (j *job) escapes() bool {
	return j.nohup || j.setsid || j.disowned || j.orphaned || j.coproc
}

// call is a simple command the shell runs in the foreground, seen through
// its wrappers. Only programs a rule looks at by name are kept.
type call struct {
	start, end int // outer offsets of the whole command
	res        resolved
	async      bool // part of a background job
}

// mark is a position of interest: a disown, a job-control command.
type mark struct {
	rule       string
	start, end int
	what       string
	// The jobs a job-control command concerns, for SG2007: jobs named by
	// fg/bg, and for set -m the jobs sh starts from index from on.
	jobs []*job
	sh   *shell
	from int
}

// shellKind says what happens to a shell's unwaited jobs when it ends.
type shellKind uint8

const (
	shTop      shellKind = iota // the script itself: unwaited jobs outlive it
	shNested                    // bash -c '…' inside the script: the same
	shSubshell                  // ( ), $( ), a pipeline element, a job body: unwaited jobs are orphaned
)

// shell is one shell process as the walk goes through it in execution order.
type shell struct {
	kind    shellKind
	async   bool // the whole shell runs as (part of) a background job
	jobs    []*job
	last    *job              // $!
	alt     []*job            // after if or case: other jobs $! may be
	pidVars map[string][]*job // variables that hold a $!
	traps   []trapBody        // EXIT traps, run when the shell ends
	// monitor: set -m is on. Each job then leads its own process group,
	// so `kill -- -$!` reaches it and fg waits for it.
	monitor bool
	// dash: the shell is dash (or another ash), which execs the last
	// simple command of a background subshell instead of forking it and
	// waiting (see dashExecsTail).
	dash bool
}

type trapBody struct {
	code string // the trap's command string, parsed when the shell ends
	offs []int  // its offsets in the outer source
	last *job   // $! when the trap was set
}

// walker walks statements in execution order, tracking descriptors and jobs.
type walker struct {
	p     *pass
	src   *source
	sh    *shell
	depth int // nesting of -c strings, bounded
	// job is the background job whose body is being walked, if any.
	job *job
	// slow counts the commands walked that may take a while (not a quick
	// builtin, or a loop); bounded adds up the literal durations of the
	// commands that have one (sleep 0.2, timeout 0.5 cmd). A job whose walk
	// does not move slow, and moves bounded by less than briefJob, ends
	// (almost) at once and holds nothing worth reporting.
	slow    int
	bounded time.Duration
	// funcs are the functions declared so far, by name. A body is walked
	// where the function is called, with the caller's descriptors and in
	// the caller's shell; bodies never called are walked at the end with
	// the descriptors of their declaration.
	funcs     map[string]*function
	funcOrder []string
	free      []*shell // ended shells, for newShell to reuse
	remote    int      // inside an ssh command string
	// fed is the script the left side of a pipe prints, while the walk is
	// on its right side: a shell there reads it from stdin.
	fed *script
	// printed are the jobs whose $! an echo or printf wrote into the
	// command substitution being walked: `pid=$(server & echo $!)`.
	printed []*job
	// nextDash: the nested shell about to be walked is dash.
	nextDash bool
	// funcEnv is the descriptors a function call left the shell with,
	// when an exec in its body changed them.
	funcEnv *fdTable
	// cond > 0 while the walk is in a command that runs only if an
	// earlier one succeeded or failed (the right of && or ||): a kill or
	// wait there may not happen.
	cond    int
	calling map[string]bool
}

const maxNested = 8

func (w *walker) stmts(list []*syntax.Stmt, env fdTable) fdTable {
	for _, s := range list {
		env = w.stmt(s, env)
		if ends(s) {
			break // bash never runs what follows
		}
	}
	return env
}

// andOr walks `X && Y` or `X || Y` in the current shell and returns its
// descriptors afterwards. Y runs if X succeeds (&&) or fails (||): when
// X's status is known, Y runs for sure or never; otherwise what Y does to
// the jobs (kill, wait) may not happen, and an exec in it may not have
// redirected the shell (the descriptors before it are kept: they are the
// ones that can hang the caller).
func (w *walker) andOr(c *syntax.BinaryCmd, env fdTable) fdTable {
	env = w.stmt(c.X, env)
	switch st := status(c.X); {
	case st == 0:
		w.cond++
		w.stmt(c.Y, env)
		w.cond--
	case (st > 0) == (c.Op == syntax.AndStmt):
		env = w.stmt(c.Y, env)
	}
	return env
}

// ends reports whether a statement unconditionally ends the list it is in:
// `exit`, `return`, or `exec` with a program, run in the foreground.
func ends(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || s.Negated {
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	switch ce.Args[0].Lit() {
	case "exit", "return":
		return true
	case "exec":
		r := resolve(ce.Args)
		return len(r.all) > 0
	}
	return false
}

// stmt walks one statement and returns the descriptors the shell has after
// it (only `exec` redirections change them).
func (w *walker) stmt(s *syntax.Stmt, env fdTable) fdTable {
	if s.Background || s.Coprocess || s.Disown {
		w.startJob(s, env)
		return env
	}
	if cc, ok := s.Cmd.(*syntax.CoprocClause); ok {
		w.startCoproc(s, cc, env)
		return env
	}
	inner := env.apply(s.Redirs)
	w.words(redirWords(s.Redirs), env)
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok {
		w.funcEnv = nil
		r := w.call(s, ce, env, inner)
		if fe := w.funcEnv; fe != nil && len(s.Redirs) == 0 {
			w.funcEnv = nil
			return *fe // (a call's own redirections are undone after it)
		}
		if r.exec && len(r.all) == 0 {
			// exec >log 2>&1: the shell's own descriptors change; in the
			// subshell of a job, so does what the job holds.
			if j := w.job; j != nil && j.sh == w.sh && j.kind == jobCompound {
				j.fds = inner
			}
			return inner
		}
		return env
	}
	if b, ok := s.Cmd.(*syntax.Block); ok && len(s.Redirs) == 0 {
		// A group runs in the current shell: an exec in it redirects
		// the shell itself.
		return w.stmts(b.Stmts, env)
	}
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
		return w.andOr(b, env) // so does an and-or list
	}
	w.command(s.Cmd, inner)
	return env
}

// command walks a compound command run in the foreground of the current shell.
func (w *walker) command(c syntax.Command, env fdTable) {
	switch c := c.(type) {
	case *syntax.Block:
		w.stmts(c.Stmts, env)
	case *syntax.Subshell:
		w.subshell(c.Stmts, env)
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			w.andOr(c, env)
			return
		}
		w.pipeline(c, env, tBlock)
	case *syntax.IfClause:
		b := w.branches()
		hasElse := false
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, env)
			b.start()
			w.stmts(ic.Then, env)
			b.end()
			hasElse = hasElse || (ic.Else != nil && len(ic.Else.Cond) == 0)
		}
		b.done(!hasElse)
	case *syntax.WhileClause:
		w.slow++
		w.stmts(c.Cond, env)
		w.stmts(c.Do, env)
	case *syntax.ForClause:
		w.loopHeader(c.Loop, env)
		w.stmts(c.Do, env)
	case *syntax.CaseClause:
		w.words([]*syntax.Word{c.Word}, env)
		b := w.branches()
		for _, it := range c.Items {
			b.start()
			w.stmts(it.Stmts, env)
			b.end()
		}
		b.done(true)
	case *syntax.FuncDecl:
		// The body runs when the function is called; walking it where it is
		// declared reports what it starts once, at the place to fix it.
		if c.Name == nil { // the parser accepts `()x` as a nameless function
			w.stmt(c.Body, env)
			break
		}
		w.p.define(c.Name.Value)
		if w.funcs == nil {
			w.funcs = map[string]*function{}
		}
		if w.funcs[c.Name.Value] == nil {
			w.funcOrder = append(w.funcOrder, c.Name.Value)
		}
		w.funcs[c.Name.Value] = &function{body: c.Body, env: env, src: w.src}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			w.stmt(c.Stmt, env)
		}
	case *syntax.DeclClause:
		for _, a := range c.Args {
			w.assign(a, env)
		}
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		w.nodeSubsts(c, env)
	}
}

func (w *walker) loopHeader(l syntax.Loop, env fdTable) {
	switch l := l.(type) {
	case *syntax.WordIter:
		w.words(l.Items, env)
	case *syntax.CStyleLoop:
		w.nodeSubsts(l, env)
	}
}

// subshell walks statements in a child shell: jobs it does not wait for are
// orphaned when it exits.
func (w *walker) subshell(list []*syntax.Stmt, env fdTable) {
	saved := w.sh
	w.sh = w.newShell(shSubshell, saved.async)
	w.stmts(list, env)
	w.endShell()
	w.sh = saved
}

// pipeline walks each element in its own subshell. Every element but the
// last writes into a pipe; outPipe says what that pipe is to the walker
// (tBlock when the shell waits for the reader, tPipe inside a job). It
// reports whether an element may take a while, and whether the last one
// does while writing into outPipe (which is what keeps a reader of the
// whole pipeline going).
func (w *walker) pipeline(c *syntax.BinaryCmd, env fdTable, outPipe target) (long, feeds bool) {
	if jobsPidsToKill(c) {
		w.killAll()
	}
	left := env
	left[1] = outPipe
	if c.Op == syntax.PipeAll {
		left[2] = outPipe
	}
	longX, feedsX := w.pipeElem(c.X, left, outPipe, false)
	// `echo 'cmd &' | bash`: the shell on the right runs what the left
	// side prints, when that is a literal (see fedScript).
	if _, ok := c.Y.Cmd.(*syntax.CallExpr); ok {
		w.fed = fedScript(c.X)
	}
	longY, feedsY := w.pipeElem(c.Y, env, outPipe, feedsX)
	w.fed = nil
	return longX || longY, feedsY
}

// pipeElem walks one element of a pipeline and reports whether it may take
// a while, and whether it does so writing into outPipe. upstream says
// whether the elements before it keep writing into its stdin for a while:
// a filter (cat, grep, tee…) ends when its input does, so it lasts as long
// as they do whatever the walk counted for it (`server >/dev/null | tee
// log` ends tee at once; `server 2>&1 >/dev/null | tee log` does not).
func (w *walker) pipeElem(s *syntax.Stmt, env fdTable, outPipe target, upstream bool) (long, feeds bool) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Background && len(s.Redirs) == 0 {
		return w.pipeline(b, env, outPipe)
	}
	saved, slow, bounded, njobs := w.sh, w.slow, w.bounded, len(w.p.jobs)
	w.sh = w.newShell(shSubshell, saved.async)
	w.stmt(s, env)
	w.endShell()
	w.sh = saved
	long = w.slow != slow || w.bounded-bounded >= briefJob
	// A job the element starts and leaves running with the pipe open
	// keeps the reader going as long as it runs.
	feeds = w.keepOpen(w.p.jobs[njobs:], outPipe)
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && filters.has(resolve(ce.Args).name) {
		long = upstream
		if !long {
			w.slow, w.bounded = slow, bounded
		}
	}
	long = long || feeds
	el := env.apply(s.Redirs)
	if j := w.job; j != nil && j.kind == jobPipeline && j.stmt.Cmd != nil && long {
		// An element of a background pipeline that takes a while holds
		// its descriptors for the job.
		for fd := range el {
			if el[fd] == tCaller || el[fd] == tBlock {
				j.fds[fd] = el[fd]
			} else if j.fds[fd] == tNone {
				j.fds[fd] = el[fd]
			}
		}
	}
	return long, feeds || long && el.has(outPipe)
}

// keepOpen reports whether any of the jobs takes a while with a descriptor
// on t open.
func (w *walker) keepOpen(jobs []*job, t target) bool {
	for _, j := range jobs {
		if !j.quick && j.fds.has(t) {
			return true
		}
	}
	return false
}

// startJob records a background statement and walks its body.
func (w *walker) startJob(s *syntax.Stmt, env fdTable) *job {
	j := &job{stmt: s, src: w.src, fds: env.apply(s.Redirs)}
	j.start, j.end = w.src.outer(int(s.Pos().Offset())), w.src.outer(int(s.End().Offset()))
	j.inNested, j.remote = w.src.offs != nil, w.remote > 0
	j.topLevel = w.job == nil && w.sh.kind == shTop && !j.inNested && w.p.isTop(s)
	w.words(redirWords(s.Redirs), env)

	saved, savedJob, slow, bounded := w.sh, w.job, w.slow, w.bounded
	w.sh = w.newShell(shSubshell, true)
	w.job, j.sh = j, w.sh
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		j.kind = jobSimple
		r := w.call(s, c, j.fds, j.fds)
		j.nohup, j.setsid, j.argv = r.nohup, r.setsid, argvOf(r).command(r)
		// A function runs in a forked subshell that forks its commands in
		// turn: $! is that subshell, and killing it leaves them running.
		// (Unless the body ends in exec: the subshell becomes that.)
		if fn := w.funcs[r.name]; len(r.all) > 0 && fn != nil {
			j.forks = true
			if b, ok := fn.body.Cmd.(*syntax.Block); ok {
				if t := tailOf(b.Stmts); t != nil {
					if ce, ok := t.Cmd.(*syntax.CallExpr); ok && resolve(ce.Args).exec {
						j.forks = false
					}
				}
			}
		}
	case *syntax.Subshell:
		if len(c.Stmts) == 1 && isExecdInPlace(c.Stmts[0]) {
			// bash execs a lone simple command of a subshell in place.
			in := c.Stmts[0]
			j.kind = jobSimple
			j.fds = j.fds.apply(in.Redirs)
			r := w.call(in, in.Cmd.(*syntax.CallExpr), j.fds, j.fds)
			j.nohup, j.setsid, j.argv = r.nohup, r.setsid, argvOf(r).command(r)
			break
		}
		j.kind = jobCompound
		j.tail = tailOf(c.Stmts)
		w.stmts(c.Stmts, j.fds)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// bash forks each element directly: the job holds what its
			// elements that do not finish at once hold.
			j.kind = jobPipeline
			j.fds = fdTable{}
			w.pipeline(c, env.apply(s.Redirs), tPipe)
		} else {
			j.kind = jobCompound
			j.tail = tailOfBinary(c)
			w.command(c, j.fds)
		}
	case *syntax.Block:
		j.kind = jobCompound
		j.tail = tailOf(c.Stmts)
		w.stmts(c.Stmts, j.fds)
	default:
		j.kind = jobCompound
		w.command(s.Cmd, j.fds)
	}
	w.endShell()
	j.quick = w.slow == slow && w.bounded-bounded < briefJob
	j.dur = w.bounded - bounded
	// However long the job runs, the shell that starts it goes on at once.
	w.slow, w.bounded = slow, bounded
	w.sh, w.job = saved, savedJob

	if j.kind == jobCompound && j.tail != nil {
		if ce, ok := j.tail.Cmd.(*syntax.CallExpr); ok && (resolve(ce.Args).exec || saved.dash && w.dashExecsTail(ce)) {
			// `A && exec B &`: the subshell becomes B once A is done, so
			// the job holds what B holds and $! reaches B.
			j.kind = jobSimple
			j.fds = j.fds.apply(j.tail.Redirs)
		}
	}
	if s.Coprocess {
		j.kind, j.coproc = jobCoproc, true
	}
	if s.Disown {
		j.disowned = true
	}
	w.addJob(j)
	return j
}

func (w *walker) startCoproc(s *syntax.Stmt, cc *syntax.CoprocClause, env fdTable) {
	fds := env.apply(s.Redirs)
	fds[0], fds[1] = tPipe, tPipe // both ends are the shell's
	j := &job{stmt: s, src: w.src, fds: fds, kind: jobCoproc, coproc: true}
	switch c := cc.Stmt.Cmd.(type) {
	case *syntax.CallExpr:
	case *syntax.Subshell:
		j.forks = len(c.Stmts) != 1 || !isExecdInPlace(c.Stmts[0])
	default:
		j.forks = true
	}
	j.start, j.end = w.src.outer(int(s.Pos().Offset())), w.src.outer(int(s.End().Offset()))
	j.inNested, j.remote = w.src.offs != nil, w.remote > 0
	j.fds = j.fds.apply(cc.Stmt.Redirs)
	// bash makes the redirections of a { } body in the shell itself,
	// saving the descriptors they replace above 9 (close-on-exec), and
	// then forks the coprocess: its subshell inherits the saved copies and
	// keeps them as long as it runs. `coproc { server; } 2>/dev/null`
	// holds the caller's stderr (checked under bash); a simple command or
	// a ( ) body does not.
	var kept fdTable
	if _, ok := cc.Stmt.Cmd.(*syntax.Block); ok {
		after := env.apply(s.Redirs).apply(cc.Stmt.Redirs)
		for fd := range env {
			if after[fd] != env[fd] {
				kept[fd] = env[fd]
			}
		}
	}
	saved, savedJob, slow, bounded := w.sh, w.job, w.slow, w.bounded
	w.sh = w.newShell(shSubshell, true)
	w.job = j
	w.stmt(&syntax.Stmt{Cmd: cc.Stmt.Cmd, Position: cc.Stmt.Position}, j.fds)
	w.endShell()
	w.sh, w.job = saved, savedJob
	if w.slow != slow || w.bounded-bounded >= briefJob {
		for fd, t := range kept {
			if t == tCaller || t == tBlock {
				j.fds[fd] = t
			}
		}
	}
	w.addJob(j)
	name := "COPROC"
	if cc.Name != nil {
		name = cc.Name.Lit()
	}
	w.pidVar(name+"_PID", j)
}

func (w *walker) addJob(j *job) {
	w.p.jobs = append(w.p.jobs, j)
	w.sh.jobs = append(w.sh.jobs, j)
	w.sh.last, w.sh.alt = j, nil
}

// lasts returns every job $! may name: the last one started, and after
// an if or case the last one of each branch.
func (sh *shell) lasts() []*job {
	if sh.last == nil {
		return nil
	}
	if len(sh.alt) == 0 {
		return []*job{sh.last}
	}
	return append([]*job{sh.last}, sh.alt...)
}

// branchSet collects what $! is after alternative branches: `if …; then
// a & else b & fi; pid=$!` saves a's pid or b's, so a later `wait $pid`
// waits for whichever ran.
type branchSet struct {
	sh     *shell
	before []*job
	after  []*job
}

func (w *walker) branches() *branchSet {
	return &branchSet{sh: w.sh, before: w.sh.lasts()}
}

func (b *branchSet) start() { b.sh.last, b.sh.alt = first(b.before), rest(b.before) }

func (b *branchSet) end() {
	for _, j := range b.sh.lasts() {
		if !slices.Contains(b.after, j) {
			b.after = append(b.after, j)
		}
	}
}

// done sets $! to the union of the branches; fallThrough: no branch may
// have run (no else), so $! may also be what it was before.
func (b *branchSet) done(fallThrough bool) {
	if fallThrough {
		for _, j := range b.before {
			if !slices.Contains(b.after, j) {
				b.after = append(b.after, j)
			}
		}
	}
	b.sh.last, b.sh.alt = first(b.after), rest(b.after)
}

func first(js []*job) *job {
	if len(js) == 0 {
		return nil
	}
	return js[0]
}

func rest(js []*job) []*job {
	if len(js) < 2 {
		return nil
	}
	return js[1:]
}

func (w *walker) pidVar(name string, j *job) {
	if w.sh.pidVars == nil {
		w.sh.pidVars = map[string][]*job{}
	}
	w.sh.pidVars[name] = append(w.sh.pidVars[name], j)
}

// endShell runs the shell's EXIT traps and orphans what a subshell leaves.
func (w *walker) endShell() {
	sh := w.sh
	for _, t := range sh.traps {
		if len(sh.jobs) == 0 {
			break // nothing for a kill or wait in the trap to reach
		}
		f, err := w.p.parseNested(t.code, syntax.LangBash)
		if err != nil {
			continue
		}
		savedSrc := w.src
		w.src = &source{offs: t.offs, text: []byte(t.code)}
		savedLast := sh.last
		sh.last = t.last
		w.stmts(f.Stmts, fdTable{})
		sh.last = savedLast
		w.src = savedSrc
	}
	if sh.kind == shSubshell {
		for _, j := range sh.jobs {
			if !j.resolved() {
				j.orphaned = true
			}
		}
	}
	if sh.kind != shTop {
		w.free = append(w.free, sh) // the caller restores its own shell next
	}
}

// mark notes a position a rule reports. What happens on another machine
// (an ssh command string) does not outlive anything here, so it is not marked.
func (w *walker) mark(m mark) {
	if w.remote == 0 {
		w.p.marks = append(w.p.marks, m)
	}
}

// newShell returns an empty shell, reusing one that ended: subshells come
// and go at every ( ), $( ), pipeline element and job body.
func (w *walker) newShell(kind shellKind, async bool) *shell {
	// A subshell is a fork of the current shell: the same program. A
	// nested shell's program is set by its caller (nestedCode).
	dash := w.sh != nil && w.sh.dash
	var sh *shell
	if n := len(w.free); n > 0 {
		sh = w.free[n-1]
		w.free = w.free[:n-1]
		clear(sh.jobs)
		clear(sh.pidVars)
		*sh = shell{kind: kind, async: async, dash: dash, jobs: sh.jobs[:0], pidVars: sh.pidVars, traps: sh.traps[:0]}
	} else {
		sh = &shell{kind: kind, async: async, dash: dash}
	}
	if kind == shSubshell && w.sh != nil {
		// A subshell is a copy of its parent: $! and the variables that
		// hold pids name the parent's jobs, which its kill reaches (its
		// wait does not: they are not its children).
		sh.last, sh.alt = w.sh.last, w.sh.alt
		for name, js := range w.sh.pidVars {
			if sh.pidVars == nil {
				sh.pidVars = map[string][]*job{}
			}
			sh.pidVars[name] = append(sh.pidVars[name][:0], js...)
		}
	}
	return sh
}

// isExecdInPlace reports whether bash runs the statement, alone in a
// subshell, by exec'ing it (checked against bash 5.2: `(cmd >f) &` does
// not hold the caller, `{ cmd >f; } &` does).
func isExecdInPlace(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess {
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0
}

// tailOf returns the last statement of a list when it is a simple
// foreground command, or follows the last statement into a nested
// and-or list.
func tailOf(list []*syntax.Stmt) *syntax.Stmt {
	if len(list) == 0 {
		return nil
	}
	return tailStmt(list[len(list)-1])
}

func tailStmt(s *syntax.Stmt) *syntax.Stmt {
	if s.Background || s.Coprocess || s.Negated {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return nil
		}
		return s
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			if len(s.Redirs) > 0 {
				return nil
			}
			return tailOfBinary(c)
		}
	}
	return nil
}

// tailOfBinary: in `A && B`, B runs last when it runs at all. In `A || B`
// too. The whole list's tail is the tail of its right side.
func tailOfBinary(c *syntax.BinaryCmd) *syntax.Stmt {
	if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
		return nil
	}
	return tailStmt(c.Y)
}

// call walks a simple command. env is the shell's table before the
// command's redirections (substitutions in the words see it), inner after.
func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr, env, inner fdTable) resolved {
	for _, a := range ce.Assigns {
		w.assign(a, env)
	}
	w.words(ce.Args, env)
	r := resolve(ce.Args)
	if len(ce.Args) > 0 && (len(r.all) == 0 || r.kind&kQuick == 0 || r.wrapped) && r.name != "wait" && !runsLiteral(r) && !(r.exec && len(r.all) == 0) && (r.wrapped || w.funcs[r.name] == nil) {
		// (wait lasts as long as the jobs it waits for: see waitedFor; a
		// shell given its code as a literal, or a function, as long as
		// that code; exec without a command only redirects.)
		if d, ok := r.bound(); ok {
			w.bounded += d
		} else {
			w.slow++
		}
	}
	c := call{
		start: w.src.outer(int(s.Pos().Offset())),
		end:   w.src.outer(int(s.End().Offset())),
		res:   r,
		async: w.sh.async,
	}
	if len(r.all) == 0 {
		return r
	}
	if !c.async && r.kind&kServer != 0 {
		w.p.calls = append(w.p.calls, c) // what SG3001 looks at
	}

	if r.fork {
		// setsid -f forks and returns at once: the forked process is a job
		// the shell has no handle on.
		j := &job{stmt: s, src: w.src, fds: inner, kind: jobForked, setsid: true, nohup: r.nohup}
		j.start, j.end = c.start, c.end
		j.inNested, j.remote = w.src.offs != nil, w.remote > 0
		j.quick = r.kind&kQuick != 0
		w.p.jobs = append(w.p.jobs, j)
		if w.sh.kind == shSubshell {
			w.sh.jobs = append(w.sh.jobs, j)
		}
	}
	if how := daemonizes(r); how != "" {
		w.mark(mark{rule: "SG2008", start: c.start, end: c.end, what: how})
	}
	if r.setsid && !r.fork && w.job == nil && !w.sh.async {
		w.mark(mark{rule: "SG3002", start: c.start, end: c.end})
	}

	switch r.name {
	case "echo", "printf":
		if inner[1] == tBlock && refersToLastPid(ce) {
			w.printed = append(w.printed, w.sh.lasts()...)
		}
	case "wait":
		w.wait(r.args)
	case "kill":
		w.kill(r.args)
	case "pkill", "killall":
		w.killByName(r)
	case "disown":
		w.disown(r.args, c)
	case "fg", "bg":
		m := mark{rule: "SG2007", start: c.start, end: c.end, what: r.name}
		named, _, any := w.jobsNamed(r.args)
		m.jobs = named
		if !any && w.sh.last != nil {
			m.jobs = []*job{w.sh.last} // the current job
		}
		if r.name == "fg" && w.sh.monitor {
			// With job control on, fg brings the job to the foreground and
			// waits for it, as wait would.
			for _, j := range m.jobs {
				if !j.disowned && j.kind != jobForked {
					w.waitedFor(j)
				}
			}
		}
		w.mark(m)
	case "set":
		for _, a := range r.args {
			v := a.Lit()
			if (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "m")) || v == "monitor" {
				if v == "monitor" || !strings.Contains(v, "o") || strings.HasSuffix(v, "m") {
					w.mark(mark{rule: "SG2007", start: c.start, end: c.end, what: "set -m", sh: w.sh, from: len(w.sh.jobs)})
					w.sh.monitor = true
					break
				}
			}
		}
	case "trap":
		if w.job != nil {
			w.job.trap = true
		}
		w.trap(r.args)
	case "alias":
		for _, a := range r.args {
			if name, _, ok := strings.Cut(a.Lit(), "="); ok {
				w.p.define(name)
			}
		}
	case "eval":
		w.nestedEval(r.args, inner)
	default:
		if lang, ok := shellLang(r.name); ok {
			w.nestedShell(r, lang, inner, s)
		} else if r.name == "ssh" {
			w.remoteShell(r, inner)
		} else if w.funcs[r.name] != nil {
			w.callFunc(r.name, inner)
		} else {
			for _, args := range runCommands(r) {
				w.call(s, &syntax.CallExpr{Args: args}, env, inner)
			}
		}
	}
	return r
}

// function is a declared shell function.
type function struct {
	body   *syntax.Stmt
	env    fdTable // descriptors where it was declared
	src    *source
	walked int // how many calls walked the body
}

// maxFuncWalks bounds how often one body is walked, so that functions
// calling functions cannot blow the walk up; later calls only apply what
// the body does to the caller's jobs (its wait and kill commands).
const maxFuncWalks = 3

// callFunc walks a function's body where it is called: in the calling
// shell (its jobs are the caller's, its wait and kill reach the caller's
// jobs: `cleanup() { kill "$pid"; }; trap cleanup EXIT`) and with the
// call's descriptors (`start >/dev/null 2>&1` redirects what start runs).
func (w *walker) callFunc(name string, env fdTable) {
	fn := w.funcs[name]
	if fn == nil || w.calling[name] {
		return
	}
	if w.calling == nil {
		w.calling = map[string]bool{}
	}
	w.calling[name] = true
	defer delete(w.calling, name)
	if fn.walked < maxFuncWalks {
		fn.walked++
		saved := w.src
		w.src = fn.src
		if after := w.stmt(fn.body, env); after != env {
			w.funcEnv = &after // an exec in the body redirected the shell
		}
		w.src = saved
		return
	}
	syntax.Walk(fn.body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.BinaryCmd:
			return n.Op == syntax.AndStmt || n.Op == syntax.OrStmt
		case *syntax.Stmt:
			return !n.Background && !n.Coprocess
		case *syntax.CallExpr:
			r := resolve(n.Args)
			switch r.name {
			case "wait":
				w.wait(r.args)
			case "kill":
				w.kill(r.args)
			default:
				w.callFunc(r.name, env)
			}
			return false
		}
		return true
	})
}

// walkUncalled walks, in declaration order, the bodies of functions no
// call reached, so that a library of functions is still checked.
func (w *walker) walkUncalled() {
	for _, name := range w.funcOrder {
		fn := w.funcs[name]
		if fn.walked > 0 {
			continue
		}
		fn.walked = maxFuncWalks
		saved := w.src
		w.src = fn.src
		w.stmt(fn.body, fn.env)
		w.src = saved
	}
}

// assign notes variables that save a job's pid (pid=$!, pids+=($!)) and
// walks substitutions in the value.
func (w *walker) assign(a *syntax.Assign, env fdTable) {
	if a.Value != nil {
		saved := w.printed
		w.printed = nil
		w.words([]*syntax.Word{a.Value}, env)
		if a.Name != nil {
			// pid=$(server >log 2>&1 & echo $!): the variable names the
			// job, which `kill $pid` reaches (wait cannot: it is not this
			// shell's child).
			for _, j := range w.printed {
				w.pidVar(a.Name.Value, j)
			}
		}
		w.printed = saved
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				w.words([]*syntax.Word{e.Value}, env)
			}
		}
	}
	if a.Name == nil || w.sh.last == nil {
		return
	}
	if a.Value != nil && plainWord(a.Value) && a.Array == nil {
		return // no $! in a literal
	}
	if refersToLastPid(a) {
		for _, j := range w.sh.lasts() {
			w.pidVar(a.Name.Value, j)
		}
	}
}

func refersToLastPid(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "!" {
			found = true
		}
		return !found
	})
	return found
}

// jobsNamed resolves the arguments of wait, kill and disown to jobs of the
// current shell. all is true when an argument could be any job.
func (w *walker) jobsNamed(args []*syntax.Word) (named []*job, all bool, any bool) {
	for _, a := range args {
		lit := a.Lit()
		if lit != "" && strings.HasPrefix(lit, "-") {
			continue // options and signals
		}
		if l, ok := a.Parts[0].(*syntax.Lit); ok && lit == "" && strings.HasPrefix(l.Value, "-") {
			// -$! or -$pid: a process group (or a signal in a variable).
			// A job leads a group of its own only under set -m; without
			// job control `kill -- -$!` reaches nothing (bash: "No such
			// process"), and the job keeps running.
			if !w.sh.monitor {
				continue
			}
		}
		any = true
		switch {
		case lit == "%%" || lit == "%+" || lit == "%":
			// The current job: the last one started that is still
			// running (a job that ended at once is gone from the table
			// by the time a later command looks). Job specs name the
			// shell's own jobs; a subshell inherits $! but starts with an
			// empty job table.
			for i := len(w.sh.jobs) - 1; i >= 0; i-- {
				if j := w.sh.jobs[i]; !j.disowned && (!j.quick || i == 0) {
					named = append(named, j)
					break
				}
			}
			continue
		case strings.HasPrefix(lit, "%") && isDigits(lit[1:]):
			n := 0
			for _, c := range lit[1:] {
				n = n*10 + int(c-'0')
			}
			if n >= 1 && n <= len(w.sh.jobs) && !w.sh.jobs[n-1].disowned {
				named = append(named, w.sh.jobs[n-1]) // (disown takes it out of the table)
			}
			continue
		case strings.HasPrefix(lit, "%"):
			// %name: the job whose command starts with name; %?name: the
			// one whose command contains it. bash refuses the spec when
			// more than one job matches.
			var match []*job
			for _, j := range w.sh.jobs {
				if j.disowned {
					continue
				}
				t := j.text()
				if q, ok := strings.CutPrefix(lit[1:], "?"); ok && strings.Contains(t, q) || !ok && strings.HasPrefix(t, lit[1:]) {
					match = append(match, j)
				}
			}
			if len(match) == 1 {
				named = append(named, match[0])
			}
			continue
		case lit != "":
			continue // a literal pid or name: not one of ours as far as we know
		}
		matched := false
		syntax.Walk(a, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				if n.Param == nil {
					return true
				}
				if n.Param.Value == "!" {
					named = append(named, w.sh.lasts()...)
					matched = true
				} else if js, ok := w.sh.pidVars[n.Param.Value]; ok {
					named = append(named, js...)
					matched = true
				}
			}
			return true
		})
		if !matched {
			all = true // $(jobs -p), a pid we did not see saved…
		}
	}
	return named, all, any
}

func (w *walker) wait(args []*syntax.Word) {
	named, all, any := w.jobsNamed(args)
	nflag := false
	for _, a := range args {
		if a.Lit() == "-n" {
			nflag = true
		}
	}
	pending := w.pending()
	switch {
	case nflag && !any:
		if len(pending) == 1 {
			w.waitedFor(pending[0])
		}
	case !any || all:
		for _, j := range pending {
			w.waitedFor(j)
		}
	default:
		for _, j := range named {
			if !j.disowned && j.kind != jobForked && slices.Contains(w.sh.jobs, j) {
				w.waitedFor(j) // only a child of this shell can be waited for
			}
		}
	}
}

// waitedFor records that the shell waits for j: for sure, or, when the
// wait runs only if an earlier command succeeds (or fails), maybe.
func (w *walker) waitedFor(j *job) {
	if w.cond > 0 {
		j.condEnd = true
		return
	}
	j.waited = true
	// The shell now lasts as long as the job does.
	if j.quick {
		w.bounded += j.dur
	} else {
		w.slow++
	}
}

// pending returns the jobs of the current shell that wait can still reach.
func (w *walker) pending() []*job {
	var js []*job
	for _, j := range w.sh.jobs {
		if !j.resolved() && !j.disowned && j.kind != jobForked {
			js = append(js, j)
		}
	}
	return js
}

func (w *walker) disown(args []*syntax.Word, c call) {
	var js []*job
	hOnly := false
	named, all, any := w.jobsNamed(args)
	for _, a := range args {
		switch a.Lit() {
		case "-a":
			all = true
		case "-h":
			hOnly = true
		}
	}
	if hOnly {
		return // -h keeps the job in the table, only spares it SIGHUP
	}
	switch {
	case all:
		js = w.pending()
	case any:
		js = named
	default:
		if w.sh.last != nil && !w.sh.last.resolved() {
			js = []*job{w.sh.last}
		}
	}
	n := 0
	for _, j := range js {
		if !j.resolved() && !j.disowned {
			j.disowned = true
			if !j.quick {
				n++ // a job that ends at once leaves nothing to outlive the shell
			}
		}
	}
	if n > 0 {
		w.mark(mark{rule: "SG2004", start: c.start, end: c.end})
	}
}

// trap remembers EXIT traps: their kill and wait commands run when the
// shell ends.
func (w *walker) trap(args []*syntax.Word) {
	if len(args) < 2 {
		return
	}
	exit := false
	for _, a := range args[1:] {
		switch strings.ToUpper(a.Lit()) {
		case "EXIT", "0", "SIGEXIT":
			exit = true
		}
	}
	if !exit {
		return
	}
	code, offs, ok := literalWithParams(args[0])
	if !ok {
		return
	}
	w.sh.traps = append(w.sh.traps, trapBody{code: code, offs: w.mapOffs(offs), last: w.sh.last})
}

// mapOffs composes a nested string's offsets with the current source's map.
func (w *walker) mapOffs(offs []int) []int {
	if w.src.offs == nil {
		return offs
	}
	out := make([]int, len(offs))
	for i, o := range offs {
		out[i] = w.src.outer(o)
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
func (w *walker) remoteShell(r resolved, env fdTable) {
	w.remote++
	defer func() { w.remote-- }()
	i := 0
	for ; i < len(r.args); i++ {
		v := r.args[i].Lit()
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
	if i+2 != len(r.args) || w.depth >= maxNested {
		return
	}
	w.nested(r.args[i+1], syntax.LangBash, env, shNested)
}

// nestedShell walks the string of `bash -c '…'` as the program of a child
// shell whose descriptors are the command's.
func (w *walker) nestedShell(r resolved, lang syntax.LangVariant, env fdTable, s *syntax.Stmt) {
	dash := isDash(r.name)
	defer func() { w.nextDash = false }()
	script, cflag, sflag, operands := shellArgs(r.args)
	if w.depth >= maxNested {
		return
	}
	if script != nil {
		w.nextDash = dash
		w.nested(script, lang, env, shNested)
		return
	}
	// `bash <<'EOF' … EOF` and `bash <<< '…'` run the script from stdin;
	// so does `bash -s ARGS`, whose operands are $1….
	if cflag || operands && !sflag {
		return // a -c string that is not a literal, or a script file
	}
	fed := w.fed
	w.fed = nil
	w.nextDash = dash
	if word := stdinDoc(s.Redirs); word != nil {
		w.nested(word, lang, env, shNested)
	} else if fed != nil {
		w.nestedCode(fed.code, fed.offs, fed.quote, lang, env, shNested)
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
func (w *walker) nestedEval(args []*syntax.Word, env fdTable) {
	if len(args) != 1 || w.depth >= maxNested {
		return
	}
	w.nested(args[0], syntax.LangBash, env, 0xff)
}

func (w *walker) nested(word *syntax.Word, lang syntax.LangVariant, env fdTable, kind shellKind) {
	code, offs, ok := literal(word)
	if !ok {
		return
	}
	w.nestedCode(code, offs, quoteOf(word), lang, env, kind)
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
// as a script run by another shell (kind) or by the current one (0xff).
func (w *walker) nestedCode(code string, offs []int, quote byte, lang syntax.LangVariant, env fdTable, kind shellKind) {
	dash := w.sh.dash // eval and traps: the same shell
	if kind != 0xff {
		dash = w.nextDash
	}
	w.nextDash = false
	f, err := w.p.parseNested(code, lang)
	if err != nil {
		return
	}
	src := &source{offs: w.mapOffs(offs), text: []byte(code)}
	if w.src.offs == nil {
		src.quote = quote
	}
	savedSrc, savedSh := w.src, w.sh
	w.src = src
	w.depth++
	if kind != 0xff {
		w.sh = w.newShell(kind, savedSh.async)
		w.sh.dash = dash
	}
	w.stmts(f.Stmts, env)
	if kind != 0xff {
		w.endShell()
	}
	w.depth--
	w.src, w.sh = savedSrc, savedSh
}

// words walks the command and process substitutions inside words.
func (w *walker) words(ws []*syntax.Word, env fdTable) {
	for _, word := range ws {
		if word != nil {
			w.nodeSubsts(word, env)
		}
	}
}

func (w *walker) nodeSubsts(n syntax.Node, env fdTable) {
	if word, ok := n.(*syntax.Word); ok && plainWord(word) {
		return // the common case, without a walk
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			// The shell reads the substitution's stdout to EOF. When that
			// shell is itself (part of) a background job, it is that job
			// that waits, not the caller.
			sub := env
			sub[1] = tBlock
			if w.sh.async {
				sub[1] = tPipe
			}
			njobs := len(w.p.jobs)
			w.subshell(n.Stmts, sub)
			// A job left running with the pipe open keeps the reader
			// waiting as long as it runs.
			if w.keepOpen(w.p.jobs[njobs:], sub[1]) {
				w.slow++
			}
			return false
		case *syntax.ProcSubst:
			sub := env
			if n.Op == syntax.CmdIn {
				sub[1] = tBlock // the reader reads it to EOF
			} else {
				sub[0] = tPipe
			}
			w.subshell(n.Stmts, sub)
			return false
		}
		return true
	})
}

// plainWord reports whether a word is only literal text and quotes, so it
// cannot run anything.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func redirWords(rs []*syntax.Redirect) []*syntax.Word {
	if len(rs) == 0 {
		return nil
	}
	ws := make([]*syntax.Word, 0, len(rs))
	for _, r := range rs {
		if r.Word != nil {
			ws = append(ws, r.Word)
		}
		if r.Hdoc != nil {
			ws = append(ws, r.Hdoc)
		}
	}
	return ws
}

// literalWithParams is literal for trap strings: a double-quoted "kill $pid"
// keeps its expansions as text, to be parsed as code (the variable is the
// same either way).
func literalWithParams(w *syntax.Word) (string, []int, bool) {
	if v, offs, ok := literal(w); ok {
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
	printer := syntax.NewPrinter()
	for _, p := range dq.Parts {
		var sb strings.Builder
		if err := printer.Print(&sb, p); err != nil {
			return "", nil, false
		}
		base := int(p.Pos().Offset())
		for i := 0; i < sb.Len(); i++ {
			offs = append(offs, base+i)
		}
		b.WriteString(sb.String())
	}
	offs = append(offs, end)
	return b.String(), offs, true
}

// runsLiteral reports whether the command is a shell or eval whose code is
// a literal the walk goes through: it lasts as long as that code, which the
// walk counts, and no longer.
func runsLiteral(r resolved) bool {
	if r.timeout {
		return false
	}
	if r.name == "eval" {
		return len(r.args) == 1 && plainWord(r.args[0])
	}
	if _, ok := shellLang(r.name); !ok {
		return false
	}
	script, _, _, _ := shellArgs(r.args)
	if script == nil {
		return false
	}
	_, _, ok := literal(script)
	return ok
}

// shellArgs reads a shell's arguments as bash (and POSIX sh) do: options
// first, -c anywhere among them; the first operand (after --, if any) is
// then the command string, or without -c a script file. sflag: -s, which
// reads the script from stdin even with operands.
func shellArgs(args []*syntax.Word) (script *syntax.Word, cflag, sflag, operands bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].Lit()
		if v == "--" || v == "-" {
			if cflag && i+1 < len(args) {
				script = args[i+1]
			}
			return script, cflag, sflag, i+1 < len(args)
		}
		if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
			if cflag {
				script = args[i]
			}
			return script, cflag, sflag, true
		}
		if !strings.HasPrefix(v, "--") {
			cflag = cflag || strings.Contains(v, "c")
			sflag = sflag || strings.Contains(v, "s")
		}
		if v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file" {
			i++ // the option's value
		}
	}
	return script, cflag, sflag, false
}
