package walk

import (
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// jobKind says how bash runs a job, which decides what `kill $!` reaches
// and which fixes apply.
type jobKind uint8

const (
	// JobSimple is one program: bash forks and the child execs it, so the
	// job's pid is the program's (also `(cmd) &`, which bash execs in place).
	JobSimple jobKind = iota
	// JobCompound is an and-or list, a subshell, a group, a loop…: bash
	// forks a subshell that runs the parts and waits for each in turn.
	JobCompound
	// jobPipeline is a pipeline: one process per element.
	jobPipeline
	// jobCoproc is a coprocess: its stdin and stdout are pipes to the shell.
	jobCoproc
	// jobForked is started by a foreground command that forks and returns
	// (setsid -f): the shell has no handle on it at all.
	jobForked
)

// Job is something that runs asynchronously to the shell that started it.
// Its exported fields and methods are what the floors above read: the
// rules and their messages (what it holds, how it escapes, whether it is
// resolved), the fix (its statement, source and tail) and the façade's
// public Job; the rest is the walk's own bookkeeping.
type Job struct {
	Stmt  *syntax.Stmt // the background statement
	Src   *Source      // the text it is in (the outer source, or a nested one)
	Start int          // outer offsets of the statement, including the & that starts it
	End   int
	Kind  jobKind
	Fds   fdtable.Table // what the job's own process holds open
	num   int           // its number in the shell's job table (%N); 0: not in it
	// Tail is the last simple command of a compound job when it is in tail
	// position (nothing in the job runs after it), for the tail-exec fix.
	Tail *syntax.Stmt
	// InNested: the job is inside a `bash -c` or eval string.
	InNested bool
	// TopLevel: the statement is a direct statement of the outer script.
	TopLevel bool
	// LastOfList: the job is the last pipeline of a background and-or
	// list whose rest zsh runs in the foreground (see
	// dialect.bgLastPipeline); head is where that list starts.
	LastOfList bool
	Head       int

	Nohup, Setsid, Coproc bool
	// pipeBrief: a process substitution's worker (see worker) whose
	// pipe closes at once: a command that reads it to the end ends too.
	pipeBrief bool
	// leadsGroup: the first process of a pipeline job is setsid's or a
	// timeout's (see firstLeadsGroup): the job's process group exists
	// (see dialect.specsSignalGroup).
	leadsGroup     bool
	disowned       bool // removed from the job table: wait no longer waits for it
	Orphaned       bool // started in a subshell that exited without waiting for it
	waited, Killed bool
	Quick          bool // a builtin that finishes at once
	// trap: the job's body sets a trap that runs a command (on a signal
	// or EXIT): the subshell stays to run it, and dash and zsh no longer
	// exec its last command in place (`( trap 'exit 0' TERM; server ) &`
	// leaves the subshell waiting for the server; `trap '' TERM` alone
	// does not keep it).
	trap   bool
	remote bool // runs on another machine (ssh): only what it holds matters here
	// Prog are the words of a one-process job from its program's name on,
	// for commandLine; nil for other jobs.
	Prog []*syntax.Word
	// sh is the subshell that runs the job's body, while it is walked.
	sh *shell
	// forks: the job's process is a subshell that runs its commands as
	// children (a function, a { } coprocess): a signal to $! does not
	// reach them.
	forks bool
	// CondEnd: a kill or wait that would end it runs only if an earlier
	// command succeeds (or fails): `curl … && kill $!`.
	CondEnd bool
	// scope is the maybe the job runs under (see walk_scope.go): a kill
	// or wait under the same one ends it whenever it runs.
	scope int
	// region is the maybe the exits before the job opened (see
	// walker.exitRegion): a kill or wait that surely runs in it ends the
	// job, which exists only where those exits were not taken.
	region int
	// exitRaced: an exit that may be taken came right after the job
	// started, where mksh loses the kill of the EXIT trap it runs (see
	// noteExitRaces).
	exitRaced bool
	// ignored are the signals the job ignores from the start (see
	// shell.ignored).
	ignored dialect.SigSet
	// callsFunc: the job's subshell runs a function; bodyFds are the
	// descriptors its commands run with.
	callsFunc bool
	bodyFds   fdtable.Table
	// pipeLast is the last element of a pipeline job (the process $!
	// names); pipeRest is what the elements before it hold while they run.
	pipeLast *syntax.Stmt
	pipeRest fdtable.Table
	// pipeForks is what the programs hold that elements calling a
	// function fork in their subshells: a kill of every process of the
	// job (`kill %1`) leaves them running (see walker.pipeElem).
	pipeForks fdtable.Table
	// pipeChildren: the last element is find -exec or xargs, whose
	// command a kill of $! leaves running (see runsChildren).
	pipeChildren bool
	// CutLeft: a foreground program that a timeout's signal left running
	// when it ended the shell waiting for it (see walk_timeoutcut.go).
	CutLeft bool
	// WdLeft: such a program that a watchdog's kill of $$ left running
	// when it ended the shell; killedLate: a watchdog kills the job only
	// after the shell exited (see walk_watchdog.go).
	WdLeft, KilledLate bool
	// tailsFor are the jobs a `tail -f --pid=PID` job follows, tailsShell:
	// it follows the shell ($$); it ends within a second of them (see
	// walk_tailpid.go).
	tailsFor   []*Job
	tailsShell bool
	// RunsChildren: the job's program is find -exec or xargs (see
	// startJob), or a shell given a literal script
	// that it does not end by exec'ing (dash never does: `sh -c 'server'
	// &`): it runs the commands as its children, which a signal to $!
	// does not reach; or a package manager's script runner (see
	// scriptRunner).
	RunsChildren bool
	// ChildDeep: what runsChildren runs is a grandchild of $!, the child
	// of the script shell npm starts, which `pkill -P $!` does not reach.
	ChildDeep bool
	// Runner is the command line of the runner that scriptRunner found
	// the job's process to be, or to become by a shell's exec (`sh -c
	// 'exec make dev' &`), for the advice (see runnerKilled).
	Runner []*syntax.Word
	// procD is the dialect of the shell that is the job's process, when
	// that is not a subshell of the current one (see shell.process).
	procD *dialect.Dialect
	// ExecsTail: the job is a bash ( ) subshell that execs its last
	// command in place (see dialect.parenTail), though it may hold the
	// job's descriptors a while before: nothing waits for that command.
	ExecsTail bool
	// heldReads counts the substitutions the job's own shell reads whose
	// pipe a background job inside keeps open (see walker.nodeSubsts).
	heldReads int
	// onlyReads: the job is `x=$(…) &` whose subshell, once the
	// substitution's commands are done, only waits for EOF on a pipe its
	// background jobs keep open: a signal to it ends all the job holds
	// (the jobs inside are jobs of their own).
	onlyReads bool
	// dur is the sum of the literal durations of its commands (see
	// walker.bounded); it only means something for a quick or timed job.
	dur time.Duration
	// timed: none of its commands may take a while beyond a literal
	// duration, so it ends dur after it starts; slept: the script's sure
	// sleeps before it started (see endsWithShell).
	timed bool
	slept time.Duration
	// reported: the jobs builtin listed it after it ended, which takes
	// it out of the table where ended jobs stay (dialect.doneJobsStay).
	reported bool
	// inJob: it was started inside a background job's body, at a time
	// the shell's own statements do not tell (see endsWithShell).
	inJob bool
	// SubshellGone: a compound job's subshell was killed; its last
	// command goes on with its own descriptors (fds).
	SubshellGone bool
	// worker: a process substitution's worker (walk_procsubst.go)
	worker bool
	// Depth is how many -c strings deep the job's statement is.
	Depth int
	// AmpGt: dash started it by reading `&>` as `&` (see parseAmpGt).
	AmpGt bool
	// startSlow and startBounded are the shell's walker.slow and
	// walker.bounded just after the job started: unchanged at a kill, the
	// kill comes right after the start (see dialect.killRaces).
	// startForks is walker.forks when the job started (see kill's mksh
	// race).
	startForks   int
	startSlow    int
	startBounded time.Duration
	// endSlow and endBounded are the same when a kill ended the job (see
	// walker.inTable).
	endSlow    int
	endBounded time.Duration
	// fgLong counts the foreground programs of the job's body that may
	// take a while (walker.call), fgFds is what the last of them holds:
	// a kill of the job's subshell leaves that one running (see killed).
	fgLong int
	fgFds  fdtable.Table
	// fgSlow: the program of fgFds runs for a time the walk cannot
	// bound (a server); else fgDur is its literal one (see
	// walker.fgLong).
	fgSlow bool
	fgDur  time.Duration
	// fgOwn is the descriptors of that program alone, without those of
	// the subshell it runs in.
	fgOwn fdtable.Table
	// last is the command of its body that ran last of those that take
	// time (see runsTail).
	last lastRun
	// innerWaited are the jobs the job's own shell started and waited
	// for: when a kill ends that shell they are waited for no more.
	// innerEnded are those it killed, and when in its walk.
	innerWaited []*Job
	innerEnded  []innerEnd
	// parent is the job in whose body this one was started (nil at the
	// shell's top): a job's process group holds its descendants.
	parent *Job
	// trapSh is the job's own shell when it set signal traps, kept for
	// a kill of the job to run them (see killed).
	trapSh  *shell
	trapRan bool // a kill ran the trap already
	// timeoutGroup: the job's process is GNU timeout without
	// --foreground, which leads a process group of its own and passes
	// the signals it catches on to that group (see walker.timeoutKilled);
	// timeoutSig is its -s signal ("" for TERM).
	timeoutGroup bool
	timeoutSig   string
	// Daemon: the job is the process a program that daemonizes forked,
	// and how it does (see daemons.go and SG2008).
	Daemon string
	// relay: the job's process is an init shim that passes the signals
	// it catches on to its command (see shims.go).
	relay knowledge.RelayKind
	// monitorGroup: the job started under set -m, leading a process
	// group of its own, which a kill of the shell's group does not reach
	// (see killAll).
	monitorGroup bool
	// selfKill: the job's body surely signals the script's own shell,
	// `( sleep 30; kill $$ ) &`, with selfKillSig ("" for TERM): a
	// watchdog that a wait for it outlasts (see walk_selfkill.go).
	selfKill    bool
	selfKillSig string
	// selfKillAt is how long after the job starts its kill of $$ runs,
	// when its body's durations are literal (selfKillTimed; see
	// walk_watchdog.go).
	selfKillAt    time.Duration
	selfKillTimed bool
	// endedBy is the job whose body killed this one (see innerEnded).
	endedBy *Job
}

// innerEnd is a job that the shell of another job killed, after slow
// commands that may take a while and bounded time from that job's start
// (see walker.slow).
type innerEnd struct {
	job     *Job
	slow    int
	bounded time.Duration
	// fgLong is the job's fgLong at the kill, and fired says that the
	// kill surely happened, the shell having waited for the job it
	// ended (see walk_watchdog.go).
	fgLong int
	fired  bool
}

// text is the job's command as bash records it in its job table (what
// `%name` and `%?name` are matched against): the statement without its &.
func (j *Job) text() string {
	t := j.Src.Text[j.Stmt.Pos().Offset():j.Stmt.End().Offset()]
	return strings.TrimRight(strings.TrimSpace(string(t)), "&")
}

// commandLine is the command line of a one-process job, as pkill -f sees
// it ("" for a word that is not a literal); nil for other jobs. Built on
// demand: only pkill and killall look at it.
func (j *Job) commandLine() []string {
	r := knowledge.Resolve(j.Prog)
	return knowledge.ArgvOf(r).Command(r)
}

// tailCommandLine is the argv of a compound job's last command, when the
// job is a subshell that runs it last (nil otherwise).
func (j *Job) tailCommandLine() []string {
	if j.Kind != JobCompound || j.Tail == nil {
		return nil
	}
	ce, ok := j.Tail.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil
	}
	r := knowledge.Resolve(ce.Args)
	return knowledge.ArgvOf(r).Command(r)
}

// headCommandLine is the argv of a pipeline job's first element, when
// the elements after it read their input to the end or end at once by
// themselves (see laterElemsRead): a kill of that process by name ends
// the whole job, `server 2>&1 | tee log & … pkill -f server` (nil
// otherwise).
func (j *Job) headCommandLine() []string {
	if j.Kind != jobPipeline || !laterElemsRead(j.Stmt) {
		return nil
	}
	ce, ok := pipeElems(j.Stmt)[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return nil
	}
	r := knowledge.Resolve(ce.Args)
	return knowledge.ArgvOf(r).Command(r)
}

// Resolved reports whether the shell waits for or kills the job before it exits.
func (j *Job) Resolved() bool { return j.waited || j.Killed }

// orphanLeft reports whether j is a job a subshell or a nested shell
// (`sh -c 'server >log 2>&1 &'`, a daemonizing `up -d`) left running,
// or a process a command forked away (setsid -f, a daemon: see
// daemons.go), which only a pid file, a kill by name or a daemon's stop
// command can reach.
func (j *Job) orphanLeft() bool {
	return (j.Orphaned || j.InNested || j.Kind == jobForked) && !j.Resolved()
}

// Escapes reports whether a mechanism rule (nohup, setsid, disown, double
// fork, coproc) already describes how the job outlives the shell.
func (j *Job) Escapes() bool {
	return j.Nohup || j.Setsid || j.disowned || j.Orphaned || j.Coproc || j.Daemon != ""
}

// pauses reports whether a foreground program of j's body that lasts d
// (bounded: a literal duration) is a pause after a program of the body
// that runs longer, or for a time the walk cannot bound: a kill lands
// while the server runs, not in the restart delay after it (`while :; do
// server >log 2>&1; sleep 1; done & … kill $!` leaves the server with its
// log; bash, zsh, dash and mksh).
func (j *Job) pauses(d time.Duration, bounded bool) bool {
	return bounded && d < knowledge.Pause && (j.fgSlow || d < j.fgDur)
}

// ExecsProgram reports whether the background job j of the simple
// command ce is one program its fork execs: its first word names no
// builtin, and it calls no function (a function's body may end in exec,
// which still makes the job a subshell first).
func ExecsProgram(j *Job, ce *syntax.CallExpr) bool {
	if j.Kind != JobSimple || j.forks || j.callsFunc || j.Coproc || len(ce.Args) == 0 || len(j.Prog) == 0 {
		return false
	}
	name := knowledge.WordLit(ce.Args[0])
	return name != "" && !knowledge.Builtin(name)
}

// Reportable is true for jobs the outcome rules speak about: not a
// builtin that finishes at once, not waited for or killed.
func (j *Job) Reportable() bool { return !j.Quick && !j.Resolved() && !j.RemoteOnly() }

// RemoteOnly: the job runs on another machine and holds nothing of the
// caller's, so nothing of it hangs or outlives anything here.
func (j *Job) RemoteOnly() bool { return j.remote && !j.Fds.Holds() }
