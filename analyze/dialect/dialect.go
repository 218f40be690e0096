package dialect

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Dialect is what one shell does differently where hangs and leaks are
// decided. The walk is the same for every shell; it consults this table
// (and nothing else) where they differ. Every field was observed on this
// machine (bash 5.2, dash 0.5.12, zsh 5.9, mksh R59) by running the
// command under the shell with stdout and stderr on a pipe, the way an
// agent tool does, and each has corpus entries (../corpus) that hold it.
type Dialect struct {
	Lang    Lang
	Variant syntax.LangVariant

	// assignBgRefused: `x=1 &`, a background command of only assignments
	// or redirections, is a parse error (zsh; dialect_parse.go).
	assignBgRefused bool
	// parsesWholeC: the shell parses a -c string whole before it runs
	// any of it, so a parse error on its last line runs nothing (zsh);
	// bash, dash and mksh run the lines before it.
	ParsesWholeC bool
	// aliasesOff: a shell that is not interactive expands no alias until
	// `shopt -s expand_aliases` (bash; see walk_alias.go).
	AliasesOff bool

	// arraysFromOne: array indexes start at 1, and a bare $array expands
	// every element (zsh).
	ArraysFromOne bool
	// indexKeepsBang: an unquoted $! in the value of an assignment to an
	// array element is kept as the text "$!" (zsh: `pids[1]=$!`).
	IndexKeepsBang bool
	// noArrays: the shell has no arrays; the word `pids[0]=$!` is a
	// command that is not found, not an assignment (dash).
	NoArrays bool
	// specPicksHighest: a job spec by name that several jobs match names
	// the one of the highest number (zsh: getjob's findjobnam searches
	// from maxjob down; `a & a & kill %a` stops the second); bash, dash
	// and mksh refuse it as ambiguous.
	SpecPicksHighest bool
	// printBuiltin: the shell has the print builtin (zsh, mksh), which
	// writes its arguments as echo does: `print $! > app.pid`.
	PrintBuiltin bool
	// zeroIndexFatal: an assignment to element 0 of an array is an error
	// that ends the shell (zsh, whose arrays count from 1: `pids[0]=$!`).
	ZeroIndexFatal bool
	// noNegativeIndex: an array index below 0 names no element (mksh:
	// `kill ${pids[-1]}` gets no pid); bash and zsh count it from the end.
	NoNegativeIndex bool

	// prevIsCurrentAlone: the job spec %- (the previous job) names the
	// only job when there is one (bash; zsh, dash and mksh find none).
	PrevIsCurrentAlone bool

	// specialBuiltinsFirst: a special builtin (trap, eval, set, exit…)
	// runs even where the script defines a function of its name (mksh; dash
	// refuses to define one at all). bash and zsh run the function.
	SpecialBuiltinsFirst bool

	// BgTail are the compounds through which the subshell of a background
	// job execs its last simple command in place instead of forking it and
	// waiting. Then `cd app && server >log 2>&1 &` only leaks (the
	// subshell becomes the server, whose output goes to the log); in bash
	// the subshell waits for the server holding the caller's output.
	BgTail Tails
	// SubstTail are the compounds through which a process substitution's
	// worker execs its last simple command (the last of its own list
	// always): bash only through and-or lists, zsh as its background
	// subshells. `cat <(true; server >log 2>&1)` then holds nothing of the
	// caller's, `cat <({ true; server >log 2>&1; })` does in bash.
	SubstTail Tails
	// CTail are the tail positions of a -c string whose simple command
	// replaces the shell (exec in place): bash's last command of the list
	// and of an and-or list; zsh's also inside if, case, { }, ( ) and the
	// last round of a for loop; mksh's
	// only when the string is that one command. With a caller that makes
	// the shell a process group leader, a `setsid cmd` there forks and
	// returns at once, leaving cmd with the caller's output.
	CTail Tails
	// ParenTail are the tail positions of an explicit ( ) subshell whose
	// simple command replaces the subshell (bash 5.1 and later, as for a -c
	// string, except that inside the parentheses a newline does not end a
	// command): `(cd app && server) & … kill $!` stops the server. Only a
	// command without redirections, with no trap set before it in the
	// subshell, and not after a `&`. The other shells: see bgTail.
	ParenTail Tails
	// FgTail says which commands a foreground subshell (a `( )`, a
	// `$(…)`, a pipeline element) execs in place of itself, which makes
	// them the script's own children: `x=$(sh -c 'kill $PPID')` kills
	// the script (see walk_fgtails.go).
	FgTail fgTailRule
	// ampEndsTail: the last command of the -c string is not exec'd in
	// place when a `&` on its line comes right before it (bash parses `a
	// & b` as one connection, whose second command it does not optimize;
	// `a & :; b` and `a &` then a new line do not count). Checked by timing
	// `true & setsid sleep 1.5` under a group-leading bash.
	AmpEndsTail bool
	// tailKeepsRedirs: a redirected simple command in a cTail position is
	// still exec'd in place (zsh); bash forks it to restore the
	// descriptors afterwards, so there `setsid server >log 2>&1` runs in a
	// child that is not a group leader, and setsid does not fork.
	TailKeepsRedirs bool
	// trapsForkTail says which traps set earlier in the -c string make the
	// shell fork its last command instead of exec'ing it (it must run the
	// trap afterwards): see trapForksTail.
	trapsForkTail trapRule
	// ampGtBackgrounds: `&>` is `&` followed by `>`: `server &>/dev/null`
	// starts server in the background with the caller's output, and then
	// truncates /dev/null.
	AmpGtBackgrounds bool
	// jobsP: `jobs -p` in a non-interactive shell lists the shell's jobs,
	// so `kill $(jobs -p)` reaches them. jobsPLast: it lists the last
	// process of a pipeline job, as $! does (mksh), not the first (bash):
	// the elements before it run on.
	JobsP, JobsPLast bool
	// JobsOptions are the option letters the jobs builtin takes; with
	// any other it fails and lists nothing (mksh's c_jobs takes "lpnz":
	// `kill $(jobs -pr)` kills nothing there).
	JobsOptions string
	// jobsMarkField: the long listing writes the mark of the current and
	// the previous job as a field of its own, `[1] + 12 Running` (mksh,
	// zsh, dash; bash writes `[1]+ 12`), so `jobs -l | awk '{print $2}'`
	// prints "+" and "-" for them, and the pids of the others only.
	JobsMarkField bool
	// DisownOptions are the option letters disown takes (bash: a, h, r);
	// zsh's takes none and reads `-a` as a job it does not find, so
	// `disown -a; kill %1` still stops the job there.
	DisownOptions string
	// JobsKeptIn are the subshells that keep the parent's job table (see
	// jobs_inherited.go): their job specs, jobs -p and kill reach the
	// parent's jobs. mksh every child: exchild takes only the child's own
	// job out of the copy, "in case of $(jobs) command" (jobs.c). bash a
	// command or process substitution, whose child runs parse_and_execute
	// with the table as it is (subst.c, command_substitute), while ( ), a
	// pipeline element and a background job call without_job_control,
	// which deletes all jobs (execute_cmd.c; the jobs builtin in a
	// pipeline keeps them, see jobsP). zsh and dash clear it in every
	// child.
	JobsKeptIn SubshellForm
	// emptyArgIgnored: an empty argument of wait or disown (`wait ""`,
	// `wait "$(jobs -p)"`) is taken as none (zsh: wait waits for every
	// job, disown disowns the current one); bash, dash and mksh refuse it
	// and wait for nothing. Unquoted, it is dropped in every shell.
	EmptyArgIgnored bool
	// selfKillDeferred: a kill builtin whose pids include the shell's own
	// signals them all and the shell dies after it returns (mksh handles
	// the signal between commands): `kill $(pgrep -f server)`, which finds
	// the shell first, still stops the server. bash, zsh and dash die at
	// their own pid and signal nothing after it.
	SelfKillDeferred bool
	// substReadsFile: `$(< file)` is the file's contents (bash, zsh, mksh);
	// dash runs it as a command without a name, which prints nothing.
	SubstReadsFile bool
	// specsSignalGroup: `kill %1` signals the job's process group (dash),
	// which without job control only a setsid'd job has: for any other job
	// "No such process".
	SpecsSignalGroup bool
	// returnOutsideFails: `return` outside a function or sourced script
	// fails (status 2) and the shell goes on (bash outside POSIX mode:
	// "can only `return' from a function or sourced script"); zsh, dash,
	// mksh and bash in POSIX mode end the shell there as exit does, EXIT
	// trap and all (see walk_return.go).
	ReturnOutsideFails bool
	// killRaces: a kill of $! or %N right after the job starts, with
	// nothing that takes time in between, can be lost (mksh: the child
	// has not set up its signal handling yet); a SIGKILL is never lost.
	KillRaces bool
	// KeepsSaved are the background statements whose process keeps the
	// copies of the descriptors their redirections replaced (saved above
	// fd 9 so the shell can restore them): `{ server; } >/dev/null 2>&1 &`
	// still holds the caller's output under mksh.
	KeepsSaved saved
	// waitsSubst: the shell waits for the worker of a process
	// substitution before it goes on (zsh; see walker.substWaited): of
	// a `>(…)` argument, and of a redirection's target, `< <(…)` and
	// `> >(…)`, where the shell runs the command itself (a builtin, a
	// function, a compound that does not end in an exec in place; not
	// `exec`); bash does not, and the worker keeps the caller's stdout
	// and stderr as long as it runs.
	WaitsSubst bool
	// execCloexec: descriptors above 2 that `exec 3>&1` opens are
	// close-on-exec (mksh, like ksh): a job that runs a program does not
	// keep them, a forked subshell does.
	ExecCloexec bool
	// negatedWaits: `! cmd &` runs cmd in a subshell that waits for it to
	// negate its status (dash, mksh); bash and zsh run cmd as the job. So
	// does `! a | b &`, whose subshell waits for every element.
	NegatedWaits bool
	// subshellDefersTerm: the subshell of a background compound job does
	// not act on SIGTERM or SIGINT while a foreground child runs (mksh):
	// it dies when that child ends, so `(server; x) & … kill $!` leaves
	// it waiting, holding what it holds. In the wait builtin, or between
	// brief commands (`while :; do sleep 0.1; done`), it dies at once;
	// SIGHUP and SIGKILL end it anyway. bash, zsh and dash die at once
	// and leave the child running.
	SubshellDefersTerm bool
	// tailDropsTraps: a subshell runs the command in its tail position
	// (see kill_tail.go) with the signals a program it execs would get:
	// the traps set before it do not run then (mksh: `(trap 'kill $c'
	// TERM; server & c=$!; wait) & … kill $!` kills the subshell and
	// leaves the server; with `wait; :` the trap runs and stops it).
	TailDropsTraps bool
	// ignoredStayIgnored: a trap that a background job's subshell sets on
	// SIGINT or SIGQUIT, which the job starts with ignored (see
	// jobsIgnore), does not take: dash keeps a signal ignored on entry
	// ignored. bash, zsh and mksh run the trap: `( trap 'kill $c' INT;
	// server & c=$!; sleep 1 ) & … kill -INT $!` stops the server there.
	IgnoredStayIgnored bool
	// multios: an element of a pipeline whose stdout is redirected still
	// writes into the pipe, through a copying zsh process (zsh's MULTIOS
	// option, on by default).
	Multios bool
	// lastPipeHere: the last element of a foreground pipeline runs in
	// the shell itself, not in a subshell (zsh): what `… | while read l;
	// do server & p=$!; done` starts is the shell's job, its variables
	// stay set, and an exit there ends the shell.
	LastPipeHere bool
	// substDropsErrexit: a command substitution does not keep set -e
	// (bash outside POSIX mode, without shopt inherit_errexit: subst.c's
	// command_substitute turns -e off in the child), so `x=$(false;
	// server >log 2>&1 &)` starts the server there; zsh, dash and mksh end
	// the substitution at the false.
	SubstDropsErrexit bool
	// bashSyntaxStops: bash syntax the shell lacks (arrays, <(…),
	// function f {, |&) is a syntax error where it stands: the shell runs
	// the lines before it, one at a time as it parses them, and exits
	// (dash: evalstring and cmdloop call parsecmd for each line; `sh -c
	// 'server & echo hi; x=(a b)'` with /bin/sh dash starts nothing). The
	// walk reads those lines only, as it does for a nested `sh -c`.
	BashSyntaxStops bool
	// RefusesExpansion reports the parameter expansions the shell parses as
	// words and refuses where it expands them ("Bad substitution"), which
	// ends the shell there (see dialect_badsubst.go). nil: bash.
	RefusesExpansion func(*syntax.ParamExp) bool
	// exitTrapFunc: a function of this name is the shell's EXIT trap
	// (zsh's TRAPEXIT), run when the shell ends like `trap … EXIT`.
	ExitTrapFunc string
	// exitHook: a function of this name runs when the main shell exits,
	// right after the EXIT trap, interactive or not (zsh's zshexit: zexit
	// in Src/builtin.c). It is no trap: the shell still execs the last
	// command of its -c string in place, and then it never runs.
	ExitHook string
	// currentSkipsDone: the current job %% is the last one still running
	// (bash); zsh and mksh name the last one started even if it ended,
	// until the shell reaped it (see walker.inTable).
	CurrentSkipsDone bool
	// specsKeepReaped: %% and %- name the jobs last started even once the
	// shell reaped them and gave their numbers away (mksh: after `server &
	// : & sleep 0.2`, kill %% fails and kill %- ends the server). A job
	// waited for leaves them: after `server & b & wait %2`, %% is the
	// server and %- is no job.
	SpecsKeepReaped bool
	// doneJobsStay: a job that ended keeps its place in the table, its
	// number and %% and %-, waited for or not, until the jobs builtin
	// reports it (dash: after `setsid srv & false & sleep 1`, kill %%
	// signals the finished false and fails, and the server is %1 still
	// after `false & sleep 0.3; srv &`, which is %2).
	DoneJobsStay bool
	// coprocWord: `coproc cmd` is a coprocess though mvdan.cc/sh parses
	// it as a call of a command named coproc (zsh).
	CoprocWord bool
	// waitPidOnly: `wait $!` of a pipeline job waits for its last
	// process only (zsh), not the whole job as bash, dash and mksh do:
	// `server | tee log & …; wait $!` goes on while the server runs.
	WaitPidOnly bool
	// bangZero: $! is 0 before the first job (zsh), so `kill $!` then
	// signals the shell's whole process group.
	BangZero bool
	// childrenKeepSaved: a subshell forked while a redirected { }, if,
	// loop or function call runs in the shell inherits the copies of the
	// caller's descriptors the shell saved (above fd 9, close-on-exec:
	// gone when a program is exec'd, kept by a forked subshell): `{ (server;
	// x) & } >/dev/null 2>&1` hangs the caller in bash, dash and mksh;
	// zsh closes them in its children.
	ChildrenKeepSaved bool
	// childrenKeepFirstSaved: of the saved copies, a forked child keeps
	// only the first the shell made (mksh). Copies go to the lowest free
	// descriptor from fd 10 up, and mksh's cleanup_parents_env closes
	// in a new child only those above fd 10 (main.c, `FDSVNUM(ep, fd) >
	// FDBASE`): `{ (server; x) & } >/dev/null 2>&1` hangs the caller
	// through fd 10, the copy of stdout, while `exec 5>log; { (server;
	// x) & } 5>&- >/dev/null 2>&1` only leaks (checked under mksh 59c,
	// started with fds 0-2 only, as agent tools start shells).
	ChildrenKeepFirstSaved bool
	// execKeepsFirstSaved: `exec` with only redirections leaves the copy
	// of the first descriptor it replaced on fd 10, close-on-exec, for the
	// rest of the shell's life (mksh 59c: its exec closes the saved copies
	// above fd 10 only). A program the shell runs does not get it, the
	// shell and the subshells it forks keep it: `exec >log 2>&1; (server;
	// x) &` and `(exec >log 2>&1; server; x) &` hang the caller in mksh.
	ExecKeepsFirstSaved bool
	// execBuiltinRuns: `exec` of one of the shell's builtins runs it in
	// the shell, which then exits as usual and runs its EXIT trap (mksh:
	// `exec true`, `exec echo`). exec of a program replaces the shell in
	// every shell, and no EXIT trap runs: `server & trap 'kill $!' EXIT;
	// exec pytest` leaves the server holding the caller's output.
	ExecBuiltinRuns bool
	// bracesTransparent: `{ list; }` without redirections is the list
	// itself (dash's parser returns it): `{ a | b; } &` is the pipeline job
	// `a | b &`, both elements the shell's children and $! the last.
	BracesTransparent bool
	// braces: the brace expansion the shell does to a literal word (see
	// braces.go): `for i in {1..30}` runs thirty rounds in bash and zsh,
	// one in dash and mksh, which expands `{api,web}` only.
	Braces BraceKind
	// commandSkipsBuiltins: `command name` runs the program name, never
	// the builtin (zsh, without POSIX_BUILTINS): `command kill %1` is
	// procps kill, which knows no job specs.
	CommandSkipsBuiltins bool
	// monitorExits: `set -m` (or `set -o monitor`) in a non-interactive
	// shell is an error that ends it (zsh: "can't change option: -m",
	// even behind ||); `setopt monitor` only complains.
	MonitorExits bool
	// monitorNeedsTty: `set -m` without a terminal (as agent tools run
	// shells) turns job control off again (dash: "can't access tty; job
	// control turned off"): jobs lead no group, and `kill -- -$!` or
	// `kill %1` reaches none.
	MonitorNeedsTty bool
	// setLetters are the option letters `set -X`/`set +X` knows and
	// setNames the names `set -o NAME` knows; any other makes set fail,
	// and a special builtin that fails ends a non-interactive shell before
	// anything after it runs, even behind || (dash, zsh, mksh; `command
	// set` only fails). dash has no pipefail: `set -euo pipefail; server &`
	// starts nothing there. Empty setLetters: set only complains (bash).
	setLetters string
	setNames   *knowledge.WordSet
	// setOffLetters are the letters only `set +X` takes: options the shell
	// cannot turn on here but may turn off, as they are off (zsh's
	// dosetopt, Src/options.c, refuses INTERACTIVE and SINGLECOMMAND once
	// started, MONITOR and ZLE without a terminal, and sets any of them to
	// the value it has): `set +m`, which scripts run to quiet job reports
	// before a kill, does not end zsh, while `set -m` does.
	setOffLetters string
	// exportLetters are the option letters export and readonly know;
	// any other makes that special builtin fail and end the shell (dash:
	// `export -f start_server` says "Illegal option -f"; mksh "-f: unknown
	// option"). Empty: not checked (bash takes -f, -n; zsh only complains).
	exportLetters string
	// setoptBuiltins: the shell has setopt and unsetopt (zsh), which turn
	// options on and off by name: `setopt ERR_EXIT` is `set -e`.
	SetoptBuiltins bool
	// setNamesLoose: option names ignore case and underscores, and take a
	// "no" in front (zsh: `set -o NO_UNSET`).
	setNamesLoose bool
	// funcErrorReturns: an error that ends a non-interactive shell (a
	// failing special builtin, an unset variable under set -u) ends only
	// the function call it happens in, which returns (mksh); the others
	// end the shell there too.
	FuncErrorReturns bool
	// nounsetSkipsTraps: a shell that ends on an unset variable under set
	// -u, on an assignment to a read-only parameter, on a bad
	// substitution or on an option its set refuses (set -m without a
	// terminal, see monitorExits; set -b) runs no EXIT trap (zsh); bash,
	// dash and mksh run it.
	NounsetSkipsTraps bool
	// ReadonlyParams are parameters the shell keeps read-only whose
	// assignment is an error that ends the shell, in a function too (zsh:
	// `status=$?`, whose $status is $?; `status=1 cmd`, `local status`,
	// `for status in …` as well). bash's `UID=0` discards only the rest of
	// its line and goes on.
	ReadonlyParams *knowledge.WordSet
	// equalsExpands: an unquoted word that starts with `=` is the path of
	// the command it names, and an error that ends the shell when there
	// is none (zsh's EQUALS option: `[ "$1" == ci ]` looks for a command
	// `=`); see walker.equalsFails.
	EqualsExpands bool
	// selfTermTakesJobs: a shell leading its process group that a TERM
	// or INT it does not trap kills (`kill $$`, a foreground `pkill -f`
	// whose pattern finds its own -c command line) sends the signal on
	// to its whole group as it dies, unless it has an EXIT trap (mksh:
	// main.c's unwind, see walker.deathTakesGroup); in the caller's
	// group its jobs outlive it, as in bash, zsh and dash.
	SelfTermTakesJobs bool
	// kshFuncOptsLocal: a function declared `function name { … }` puts
	// the shell's options back when it returns (mksh: exec.c's comexec
	// restores shell_flags for FKSH functions), so its `set -e` or `set -u`
	// ends with the call; `function name() { … }` is Bourne-style there.
	// bash and zsh keep the options a function sets either way.
	KshFuncOptsLocal bool
	// localDashOpts: `local -` in a function makes the options it sets
	// after it its own, put back when it returns (bash 4.4 and later,
	// dash); zsh's and mksh's `local -` lists variables (zsh has `setopt
	// localoptions`: see walk_funcopts.go).
	LocalDashOpts bool
	// unsetFallsToFunc: `unset NAME` without -f or -v removes the function
	// NAME when no variable has that name (bash: unset_builtin tries the
	// variable first, then the function): `kill() { :; }; …; unset kill;
	// kill $!` stops the job. dash, zsh and mksh unset variables only.
	UnsetFallsToFunc bool
	// unfunction: the shell has zsh's `unfunction NAME`, which is `unset
	// -f NAME`.
	Unfunction bool
	// trapFuncs: a function named TRAP and a signal's name is the trap
	// on that signal (zsh's TRAPTERM, TRAPINT…; see zsh_trapfuncs.go).
	TrapFuncs bool
	// funcExitTraps: an EXIT trap set inside a function runs when the
	// function returns, and the shell's own is left as it was (zsh):
	// `start() { trap 'kill $!' EXIT; server & }; start` stops the server
	// at once.
	FuncExitTraps bool
	// signalRunsExitTrap: a subshell that a signal kills (one it does
	// not trap) runs its EXIT trap before it dies (bash: sig.c's
	// termsig_handler calls run_exit_trap): `(trap 'kill $(jobs -p)'
	// EXIT; server & wait) & … kill $!` stops the server. dash, zsh and
	// mksh die without it.
	SignalRunsExitTrap bool
	// topSignalRunsExitTrap: the script's own shell, killed by a signal
	// it does not trap (TERM, HUP, INT; never KILL), runs its EXIT trap as
	// it dies (bash: termsig_handler calls run_exit_trap; mksh: the fatal
	// signal unwinds to its exit, which runs it). zsh and dash die
	// without it. See walk_selfkill.go.
	TopSignalRunsExitTrap bool
	// childIntSurvives: a SIGINT that reaches the shell while it waits
	// for a foreground program child, which does not itself die of it,
	// leaves the shell going (bash: jobs.c's waitchld, a child that
	// caught SIGINT means the user meant the program): `sh -c 'kill -INT
	// $PPID'; kill $P` still kills there (see walk_ppidkill.go).
	ChildIntSurvives bool
	// FgWaitHolds are the signals that, sent to the shell alone while it
	// waits for a foreground program, do not end it before that program
	// ends: bash and zsh wait on through SIGINT and ignore SIGQUIT, dash
	// waits through SIGINT, mksh takes TERM, HUP, INT and QUIT only once
	// the child is reaped. The others end it at once and leave the
	// program running (`timeout --foreground 60 sh -c './server; echo
	// x'`: see walk_timeoutcut.go). Probed with timeout --foreground -s.
	FgWaitHolds SigSet
	// JobSigWaits are the signals that, sent to the shell by one of its
	// own background jobs (a watchdog's `( sleep 30; kill $$ ) &`) while it
	// waits for a foreground program, end it only once that program ended:
	// dash INT, mksh TERM, HUP, INT and QUIT. The others die at once and
	// leave the program running; zsh holds INT for the timeout of
	// fgWaitHolds only until a child's status changes, as the watchdog's
	// does right after its kill. bash goes on after an INT (see
	// childIntSurvives). Measured with `(sleep 0.5; kill -SIG $$) & sleep
	// 2; echo done` (see walk_watchdog.go).
	JobSigWaits SigSet
	// jobsKeepIgnored: a signal the shell ignores (`trap '' TERM`) stays
	// ignored in the jobs it starts, across exec (bash, dash, mksh), so
	// `kill $!` stops nothing; zsh's jobs get it back (only INT and QUIT
	// stay ignored, as for any job).
	JobsKeepIgnored bool
	// jobFuncSaved: in a background job that is a redirected function
	// call, the subshells the function forks inherit the copies of the
	// caller's descriptors the job's subshell saved (dash: `f() { (server;
	// x) & }; f >/dev/null 2>&1 &` hangs; so does mksh through its first
	// copy; bash and zsh save none there).
	JobFuncSaved bool
	// funcRedirsApplied: a background job that calls a function whose
	// definition has redirections (`f() { server; } >log 2>&1; f &`)
	// applies them to its subshell for good (zsh); bash, dash and mksh
	// save copies of the caller's descriptors there to restore after the
	// body, and the subshell holds them while the body runs.
	FuncRedirsApplied bool
	// savedTailExec: while it holds saved copies, a background subshell
	// whose last command is a program execs it in place, which closes them
	// (bash: `{ (cd app; server) & } >/dev/null 2>&1` only leaks, `{
	// (server; echo done) & } >/dev/null 2>&1` hangs).
	SavedTailExec bool
	// Missing are the builtins of bash the shell does not have (nor is
	// there a program of the name): a command naming one is "not found"
	// (status 127) and does nothing else. dash has no source (`source
	// venv/bin/activate && server &` starts nothing there), no disown
	// (`server & disown` leaves the job in the table, and a later wait
	// waits for it), no declare, no [[ (`if [[ $x == y ]]; then …` never
	// runs its branch); zsh and mksh no mapfile (`mapfile -t P < <(pgrep
	// …); kill "${P[@]}"` kills nothing). Each measured with `SH -c 'NAME
	// </dev/null; echo $?'`. nil: bash. (print is printBuiltin's: bash's
	// and dash's `print $! >f` still empties f.)
	Missing *knowledge.WordSet
	// MissingBuiltin is what `builtin NAME` does for a NAME in missing:
	// zsh fails ("no such builtin", 1); mksh's builtin, a special
	// builtin there, ends the shell ("builtin: mapfile: not found").
	// dash has no builtin itself.
	MissingBuiltin Absence
	// splitsWords: an unquoted $var is split into words (not zsh): `$cmd &`
	// may name a program with arguments.
	SplitsWords bool
	// PidLead and pidTrail are the blanks kill, wait and disown skip
	// around a pid (see pidargs_joined.go): before it any blank (their
	// strtol's isspace: bash, dash, mksh), after it those of pidTrail
	// (bash's legal_number: space and tab; dash: newline too; mksh
	// none). zsh skips none: `kill "$PID $UNSET"` is "illegal pid".
	PidLead  bool
	PidTrail string
	// compoundHoldsJob: a compound command the shell is running ({ }, if,
	// for, while, case, a function call, a pipeline) holds a job number
	// itself, as does a subshell from its start (zsh). So `{ server & };
	// kill %1` fails ("no such job": the server is %2) and the server
	// keeps the caller's output.
	CompoundHoldsJob bool
	// specStopsAtDead: kill %N of a pipeline job whose first process has
	// ended signals nothing (bash; see walker.dropDeadPipeSpecs).
	SpecStopsAtDead bool
	// negPidFindsJob: under set -m, `kill -- -PID` looks PID up among the
	// jobs and signals the process group of the job it belongs to (bash's
	// jobs.c kill_pid: killpg(jobs[job]->pgrp)), so -$! of a pipeline
	// job, whose last process $! is, reaches the group its first process
	// leads. mksh signals group PID as given, which for a pipeline's $!
	// does not exist: the kill fails and the job runs on.
	NegPidFindsJob bool
	// jobNumAboveHighest: a new job's number is one above the highest in
	// the table (bash without a terminal); the other shells take the
	// lowest free one. They differ once a job has left the table (see
	// walker.inTable): after `true & server & sleep 0.2`, bash numbers the
	// next job 3, zsh and mksh 1.
	JobNumAboveHighest bool
	// waitOptions: wait takes options (bash's -n, -f, -p). Elsewhere
	// `wait -n` is an error and waits for nothing: zsh looks for a job
	// named -n, dash and mksh refuse the option.
	WaitOptions bool
	// coprocPidVar: a coprocess's pid is in COPROC_PID (NAME_PID) as well
	// as $! (bash); zsh sets no such variable, so `kill $COPROC_PID`
	// kills nothing there.
	CoprocPidVar bool
	// killSigNoDashDash: `--` after a -SIGNAL option is read as an
	// operand, and the kill fails as a whole (dash: `kill -TERM -- $!`
	// says "Illegal number: -"; `kill -s TERM -- $!` and `kill -- $!`
	// work).
	KillSigNoDashDash bool
	// groupBlanks: kill reads an operand with blanks between the - of a
	// process group and its number, `-   123` (what ps's padding leaves
	// in a quoted `-"$(ps -o pgid= $P)"`), as that group (dash); bash,
	// zsh and mksh refuse it (see kill_pgidsplit.go).
	GroupBlanks bool
	// killStopsAtBad: kill stops at the first operand it cannot parse,
	// and signals none after it (dash: see kill_badarg.go).
	KillStopsAtBad bool
	// killNoSigPrefix: a signal name with the SIG prefix is refused
	// (dash: `kill -SIGTERM $!` says "Illegal option -S", `kill -s
	// SIGTERM $!` "invalid signal number or name"), and nothing is killed.
	killNoSigPrefix bool
	// TrapRefuses are the signal names the shell's trap refuses: it stops
	// at the first ("bad trap", "undefined signal"), the names before it
	// are set and the rest are not. dash reads them as kill does and
	// refuses a SIG prefix and bash's pseudo-signals (its trapcmd returns
	// there: `trap cleanup SIGINT SIGTERM EXIT` sets no EXIT trap, `trap
	// cleanup EXIT SIGINT` does); zsh takes names in upper case only
	// (`trap cleanup exit` sets nothing); bash takes no SIG before its own
	// names (SIGEXIT, SIGERR: "invalid signal specification"), and sets
	// the names after one it refuses.
	TrapRefuses trapNames
	// testNoDoubleEquals: test and [ know = but not ==, and fail on it
	// (dash: `[ "$CI" == true ]` says "unexpected operator", status 2),
	// so `if [ "$x" == y ]; then …` never runs its branch.
	TestNoDoubleEquals bool
	// killNoNumOption: kill has no -n option (dash, mksh): `kill -n 9 $!`
	// fails and kills nothing.
	killNoNumOption bool
	// killSName: kill's -s takes a signal name as the next word only
	// (zsh: `kill -s 15 $!` and `kill -sTERM $!` are the unknown signals
	// SIG15 and SIGSTERM, and nothing is killed; bash, dash and mksh take
	// both).
	killSName bool
	// killSAttached: kill reads -sNAME as -s NAME (bash, dash, mksh), so
	// bash's `kill -sigterm $!` names the signal "igterm" and fails;
	// -SIGTERM and -term are fine.
	killSAttached bool
	// killNameExact: a -NAME option must be an upper-case name (mksh:
	// `kill -term $!` and `kill -Term $!` fail), where the others take
	// any case; `-s term` is fine everywhere.
	killNameExact bool
	// jobTextEscaped: the job table shows a command whose name has no
	// slash with a backslash in front (mksh: `\sleep 5`), so `%sleep`
	// names no job (`%?sleep` and `%./server` still do).
	JobTextEscaped bool
	// badDup: what `>&word` does when word names no descriptor
	// (`>&/dev/null`): bash's and zsh's short form of `>file 2>&1`; a
	// failing command in mksh; an error that ends the shell in dash (see
	// baddup.go).
	BadDup badDupEffect
	// coprocDup: `>&p` and `<&p` are the coprocess's pipe (mksh).
	CoprocDup bool
	// bgLastPipeline: a background and-or list runs only its last
	// pipeline in the background, the rest in the foreground of the
	// shell (zsh; zshmisc(1): "note the difference from other shells
	// which execute the whole sublist in the background"). `sleep 10 &&
	// kill $! &` waits ten seconds before the kill starts, `true || server
	// &` starts nothing, and $! is left as it was.
	BgLastPipeline bool
}
