package analyze

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// kill applies `kill ARGS` to the shell's jobs.
func (w *walker) kill(args []*syntax.Word) {
	sig, ops, list := killArgs(args)
	if list || !terminates(sig) {
		return // kill -l, kill -0 (is it alive?), kill -STOP…
	}
	if w.jobsIgnore(sig) {
		return
	}
	if w.sh.d.killRefused(args) {
		return // dash: kill -SIGTERM; dash, mksh: kill -n 9
	}
	if w.sh.d.killSigNoDashDash && len(args) > 1 && args[1].Lit() == "--" && isSignal(strings.TrimPrefix(args[0].Lit(), "-")) {
		return // dash: `kill -TERM -- $!` fails ("Illegal number: -")
	}
	w.killSig = sig
	defer func() { w.killSig = "" }()
	var rest []*syntax.Word
	for _, a := range ops {
		if a.Lit() == "0" {
			w.killAll() // pid 0: the shell's process group
			return
		}
		if len(a.Parts) == 2 {
			if l, ok := a.Parts[0].(*syntax.Lit); ok && l.Value == "-" {
				if pe, ok := a.Parts[1].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "$" {
					// kill -- -$$: the group led by the shell. A caller
					// that starts the shell as a group leader (agent
					// tools, shexec) makes that the shell's whole group,
					// every job included; one that starts it in its own
					// group (a script's $(…), make) leaves none: "No such
					// process". Both checked under bash.
					if w.p.cfg.caller == CallerGroupLeader {
						w.killAll()
						return
					}
					continue
				}
			}
		}
		rest = append(rest, a)
	}
	if w.sh.d.bangZero && w.sh.last == nil {
		for _, a := range rest {
			if isLastPid(a) {
				// zsh: $! is 0 before the first job, and kill 0 signals
				// the whole process group, the shell included.
				w.killAll()
				if w.cond == 0 {
					w.p.ended = true
				}
				return
			}
		}
	}
	self := false
	for i, a := range rest {
		if w.killsShell(a) {
			// kill $(pgrep -f server): the shell signals itself first and
			// dies; the pids after its own are never signalled (but see
			// dialect.selfKillDeferred).
			self = true
			if !w.sh.d.selfKillDeferred {
				rest = rest[:i]
			}
			break
		}
	}
	if self {
		defer func() {
			if w.cond == 0 && w.job == nil && !w.sh.async {
				w.p.ended = true
			}
		}()
	}
	rest = w.killGroups(rest, sig)
	named, all, _ := w.jobsNamed(rest)
	if all {
		w.killEachJob() // $(jobs -p), a pid we did not see saved…
		return
	}
	for _, j := range named {
		if j.ignores(sig) {
			continue
		}
		if w.sh.d.killRaces && j.startSlow == w.slow && j.startBounded == w.bounded && !uncatchable(sig) {
			continue // mksh: the signal can arrive before the job is set up, and be lost
		}
		w.killed(j)
	}
	// A job spec names every process of a pipeline job; $! only its last.
	// Under set -m it names the job's process group (see killGroup), as
	// -$! does.
	for _, a := range rest {
		if strings.HasPrefix(a.Lit(), "%") || w.sh.monitor && negatedPid(a) {
			js, _, _ := w.jobsNamed([]*syntax.Word{a})
			for _, j := range js {
				if w.sh.monitor && !j.ignores(sig) {
					w.killGroup(j, false)
				} else if j.kind == jobPipeline {
					w.end(j)
				}
			}
		}
	}
}

// killGroups applies the operands `-$!` and `-$pid` of a kill without job
// control, and returns the other operands. Such an operand signals the
// process group the pid leads. Without job control a job leads none,
// except one that ran setsid in place (a background `setsid cmd &`: the
// job's process is not a group leader, so setsid makes the new session
// and group without forking): the signal then reaches every process of
// that session, children included. With set -m every job leads a group,
// and jobsNamed takes the operand as naming the job.
func (w *walker) killGroups(ops []*syntax.Word, sig string) []*syntax.Word {
	if w.sh.monitor {
		return ops
	}
	rest := ops[:0:0]
	for _, a := range ops {
		l, ok := a.Parts[0].(*syntax.Lit)
		if !ok || l.Value != "-" || len(a.Parts) < 2 {
			rest = append(rest, a)
			continue
		}
		named, _, _ := w.jobsNamed([]*syntax.Word{{Parts: a.Parts[1:]}})
		for _, j := range named {
			if j.setsid && j.kind == jobSimple && !j.ignores(sig) {
				w.killGroup(j, true)
			}
		}
	}
	return rest
}

// killGroup: with job control on (set -m) each job leads a process group
// of its own, and `kill %N` signals that group (bash, mksh): the job's
// subshell, the program it runs in the foreground and the jobs it started
// in the background (a subshell has no job control: they stay in its
// group) all end, unless they left it (setsid). Checked under bash and
// mksh with `set -m; (server; x) >/dev/null 2>&1 & sleep 0.1; kill %1`
// and `(server & wait)`: nothing is left. (zsh exits at set -m, dash
// without a terminal turns job control off.) made: j made the group
// itself with setsid (see killGroups), and ends with it.
func (w *walker) killGroup(j *job, made bool) {
	for _, k := range w.p.jobs {
		for p := k; p != nil; p = p.parent {
			if p == j {
				if !k.setsid || made && k == j {
					w.end(k)
				}
				break
			}
			if p.setsid {
				break
			}
		}
	}
}

// killed marks a job as ended by a signal. Killing a compound job's
// subshell leaves its foreground child running, still holding whatever it
// holds, so only jobs that are one process end.
func (w *walker) killed(j *job) {
	switch {
	case (j.kind == jobSimple || j.kind == jobCoproc) && !j.forks && !j.runsChildren:
		w.end(j)
	case j.callsFunc && j.forks && w.cond == 0 && !w.subshellDefers(j):
		// The function's subshell dies with the copies of the caller's
		// descriptors it saved; the command it was running goes on.
		j.fds = j.bodyFds
	case j.kind == jobPipeline && w.cond == 0:
		// $! is the last element: it dies, and the elements before it
		// run on holding what they hold (until a write finds no reader).
		j.fds = j.pipeRest
		if j.fds == (fdTable{}) {
			w.end(j)
		}
	case j.onlyReads && !w.subshellDefers(j):
		// `x=$(server 2>&1 &) & … kill $!`: the reader dies; the server
		// holds only the substitution's pipe.
		w.end(j)
	case j.kind == jobCompound && !j.subshellGone && w.cond == 0:
		w.killSubshell(j)
	}
}

// killSubshell applies the signal to the subshell of a compound job. The
// subshell dies, unless it defers the signal (see
// dialect.subshellDefersTerm) or a trap of its own takes it. What it was
// waiting for runs on: the program it ran in the foreground, taken to be
// the last one that may take a while (`a && server >log 2>&1 &` then
// `kill $!`: the server stays with its log, the caller's output is free;
// the job is that program now, and $! names a dead process), and the jobs
// it started and waited for (`(server & wait) &`: the server is orphaned).
// With only brief commands in its foreground (`wait`, a loop of `sleep
// 0.1`, builtins) nothing of the job itself runs on. Checked under bash,
// zsh, dash and mksh.
func (w *walker) killSubshell(j *job) {
	fg := j.fgLong > 0 || j.heldReads > 0 // a foreground child may be running
	if w.subshellDefers(j) {
		return // mksh: it dies when that child ends, holding what it holds till then
	}
	t := j.sigTrap(w.killSig)
	if t != nil && fg {
		// The trap runs once the child ends, and the subshell goes on:
		// the kill changes nothing the walk can tell.
		return
	}
	// The kill of a job the subshell had yet to reach does not happen:
	// one after a command that may take a while, or after more time
	// than the shell let pass before this kill.
	slow, bounded := w.slow-j.startSlow, w.bounded-j.startBounded
	for _, e := range j.innerEnded {
		if e.slow > 0 || slow == 0 && e.bounded > bounded {
			e.job.killed = false
			j.innerWaited = append(j.innerWaited, e.job)
		}
	}
	if t != nil && !(w.sh.d.tailDropsTraps && isWait(lastStmt(j.stmt))) {
		// The trap interrupts the wait and runs; then the subshell goes
		// on with what follows, which is brief (fg is false), unless it
		// loops and the trap does not exit.
		if !w.runSigTrap(j, t) && loops(j.stmt) {
			return
		}
	}
	for _, k := range j.innerWaited {
		if !k.killed {
			k.waited, k.orphaned = false, true
		}
	}
	if j.fgLong > 0 {
		j.fds = j.fgFds
		j.subshellGone = true
		return
	}
	w.end(j)
}

// subshellDefers reports whether the signal being sent is one the
// subshell of j leaves for later while a foreground child runs, and one
// may run (see dialect.subshellDefersTerm).
func (w *walker) subshellDefers(j *job) bool {
	return w.sh.d.subshellDefersTerm && softSignal(w.killSig) && (j.fgLong > 0 || j.heldReads > 0)
}

// sigTrap is the trap j's own shell set on sig, or nil. SIGKILL cannot
// be trapped.
func (j *job) sigTrap(sig string) *sigTrap {
	if j.trapSh == nil || uncatchable(sig) || j.trapRan {
		return nil
	}
	b := sigBit(sig)
	for i := range j.trapSh.sigTraps {
		if t := &j.trapSh.sigTraps[i]; t.sigs&b != 0 {
			return t
		}
	}
	return nil
}

// runSigTrap walks the action of a signal trap in the shell of j, the
// job it was set in, as that shell stood when its body ended (its jobs,
// $!, the variables that hold pids): `trap 'kill $c' TERM` passes the
// kill on to the job's own jobs. It reports whether the action exits.
func (w *walker) runSigTrap(j *job, t *sigTrap) (exits bool) {
	j.trapRan = true // once: a kill in it that reaches j again runs nothing
	f, err := w.p.parseNested(t.code, j.trapSh.d.variant)
	if err != nil {
		return false
	}
	savedSh, savedJob, savedSrc, savedSig := w.sh, w.job, w.src, w.killSig
	slow, bounded := w.slow, w.bounded
	w.sh, w.job = j.trapSh, nil
	w.src = &source{offs: t.offs, text: []byte(t.code), file: f}
	// The jobs started long before (no kill race, see
	// dialect.killRaces): no job's start matches this count.
	w.slow = -1
	savedLast := w.sh.last
	if t.set {
		w.sh.last = t.last
	}
	w.stmts(f.Stmts, j.fds)
	w.sh.last = savedLast
	w.sh, w.job, w.src, w.killSig = savedSh, savedJob, savedSrc, savedSig
	w.slow, w.bounded = slow, bounded
	for _, s := range f.Stmts {
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "exit" {
			return true
		}
	}
	return false
}

// isWait reports whether s is a call of the wait builtin.
func isWait(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "wait"
}

// loops reports whether s runs a while or until loop in its own shell's
// foreground (one that may never end).
func loops(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s.Cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.WhileClause:
			found = true
		case *syntax.Stmt:
			return !n.Background && !found
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		}
		return !found
	})
	return found
}

// end records that a signal ends j: for sure, or maybe, when the kill runs
// only if an earlier command succeeds (or fails).
func (w *walker) end(j *job) {
	if w.cond > 0 {
		j.condEnd = true
		return
	}
	j.killed = true
	if o := w.job; o != nil && o != j && o.sh == w.sh {
		o.innerEnded = append(o.innerEnded, innerEnd{j, w.slow - o.startSlow, w.bounded - o.startBounded})
	}
}

// killArgs splits the arguments of the kill builtin into the signal ("" for
// the default, SIGTERM) and the operands, as bash reads them: options come
// first (-s SIG, -n NUM, -SIG, -NUM, -l/-L), then an optional --.
func killArgs(args []*syntax.Word) (sig string, ops []*syntax.Word, list bool) {
	i := 0
	for ; i < len(args); i++ {
		o := args[i].Lit()
		switch {
		case o == "--":
			return sig, args[i+1:], false
		case o == "-l" || o == "-L":
			return "", nil, true
		case (o == "-s" || o == "-n") && i+1 < len(args):
			i++
			sig = args[i].Lit()
		case len(o) > 1 && o[0] == '-' && sig == "":
			sig = o[1:]
		default:
			return sig, args[i:], false
		}
	}
	return sig, nil, false
}

// terminates reports whether a signal ends a process that does not handle
// it. Signal 0 only checks that the process exists; STOP and its kin stop
// it (it still holds what it holds); CONT, CHLD, URG and WINCH are ignored
// by default. A signal that is not a literal is assumed to terminate.
func terminates(sig string) bool {
	switch signalName(sig) {
	case "0", "STOP", "TSTP", "TTIN", "TTOU", "CONT", "CHLD", "CLD", "URG", "WINCH",
		"17", "18", "19", "20", "21", "22", "23", "28":
		return false
	}
	return true
}

// jobsIgnore reports whether the shell's background jobs ignore sig: a
// shell without job control starts them with SIGINT and SIGQUIT ignored
// (POSIX; bash, zsh, dash and mksh alike), so `kill -INT $!` leaves a
// program that keeps the default (sleep, a plain script) running. One
// that installs its own handler (many servers do) would stop; the
// analysis goes by the default, as the shells' own behaviour is checked.
func (w *walker) jobsIgnore(sig string) bool {
	switch signalName(sig) {
	case "INT", "2", "QUIT", "3":
		return !w.sh.monitor
	}
	return false
}

// uncatchable reports whether sig is SIGKILL, which no setup of the
// job's own can lose (mksh loses a SIGTERM sent right after the &, never
// a SIGKILL: checked 8 times each under mksh R59).
func uncatchable(sig string) bool {
	s := signalName(sig)
	return s == "KILL" || s == "9"
}

// signalName is a signal as kill's option gives it, in one spelling: upper
// case without SIG (`-sigterm`, `-s TERM`, `-SIGTERM` are all TERM); a
// number stays a number.
func signalName(sig string) string {
	return strings.TrimPrefix(strings.ToUpper(sig), "SIG")
}

// killEachJob: the shell signals the process of each of its jobs by pid
// (`kill $(jobs -p)`, `pkill -P $$`), which reaches a setsid'd job as well
// but not what setsid -f forked away. A pipeline is named by its first
// process; the rest, reading from it, end with it.
func (w *walker) killEachJob() {
	for _, j := range w.sh.jobs {
		switch j.kind {
		case jobForked:
		case jobPipeline:
			w.end(j)
		default:
			w.killed(j)
		}
	}
}

// killAll: the shell signals its process group (kill 0), which every job
// and every process a job started belongs to, unless it left the group
// (setsid).
func (w *walker) killAll() {
	for _, j := range w.sh.jobs {
		if !j.setsid {
			w.end(j)
		}
	}
}

// killByName applies pkill and killall: the jobs of the shell whose program
// the pattern matches end (see byName).
func (w *walker) killByName(r resolved) {
	m, ok := w.byName(r)
	if !ok || !terminates(m.sig) || w.jobsIgnore(m.sig) {
		return
	}
	if m.every {
		w.killEachJob()
		return
	}
	for _, j := range m.kills {
		w.killed(j)
	}
	for _, j := range m.tails {
		w.end(j)
	}
}

// nameMatch is what pkill, killall or pgrep finds among the jobs: kills
// are jobs whose process it finds, tails compound jobs whose last command
// it finds (the subshell of `(cd app && server) &` waits for it: once the
// name stops that, the job ends), every: all the shell's children (-P $$).
type nameMatch struct {
	sig          string
	full         bool
	patterns     []*regexp.Regexp
	kills, tails []*job
	every        bool
}

// byName finds the jobs pkill, killall or pgrep r names. They match their
// pattern (an extended regular expression) against the process name, or
// with -f against the whole command line; killall matches names exactly
// (with -r, as a regular expression); -F reads the pid from a file. ok is
// false when a pattern is not a literal, or options narrow the match to
// processes we cannot judge (a parent, a session, a pid file the walk
// does not follow).
func (w *walker) byName(r resolved) (m nameMatch, ok bool) {
	pgrep := r.name == "pgrep" || r.name == "pkill"
	full, exact, re, children := false, r.name == "killall", false, false
	pidfile := ""
	var patterns []string
	args := r.args
	for i := 0; i < len(args); i++ {
		a := value(args[i])
		if a == "" {
			return m, false
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			// (Options may follow the pattern: pkill and killall parse
			// them with GNU getopt, `pkill -x server -P $$`.)
			patterns = append(patterns, a)
			continue
		}
		switch {
		case a == "--":
			for _, p := range args[i+1:] {
				patterns = append(patterns, value(p))
			}
			i = len(args)
		case pgrep && (a == "-f" || a == "--full"):
			full = true
		case pgrep && (a == "-x" || a == "--exact"):
			exact = true
		case r.name == "killall" && (a == "-r" || a == "--regexp"):
			re, exact = true, false
		case a == "--signal" || r.name == "killall" && a == "-s":
			if i+1 < len(args) {
				i++
				m.sig = value(args[i])
			}
		case strings.HasPrefix(a, "--signal="):
			m.sig = strings.TrimPrefix(a, "--signal=")
		case pgrep && (a == "-P" || a == "--parent") && i+1 < len(args) && isShellPid(args[i+1]):
			i++
			children = true // pkill -P $$: the shell's children, its jobs
		case pgrep && (a == "-F" || a == "--pidfile") && i+1 < len(args) && value(args[i+1]) != "":
			i++
			pidfile = path.Clean(value(args[i])) // pkill -F run.pid
		case pgrep && strings.ContainsAny(a[1:2], "gGPstFc") || r.name == "killall" && strings.ContainsAny(a[1:2], "uoyn"):
			return m, false // narrowed by group, parent, session, terminal, age…
		case pgrep && (a == "-u" || a == "-U" || a == "--euid" || a == "--uid"):
			i++ // a user: the jobs run as us
		case r.name != "pgrep" && len(a) > 1 && isSignal(a[1:]):
			m.sig = a[1:]
		}
	}
	if pidfile != "" {
		js, known := w.pidFileJobs(pidfile)
		if !known || len(patterns) > 0 || children {
			return m, false
		}
		m.kills = js
		return m, true
	}
	if children && len(patterns) == 0 {
		m.every = true
		return m, true
	}
	m.full = full
	for _, p := range patterns {
		if p == "" {
			continue
		}
		match := func(s string) bool { return s == p }
		if !exact || re {
			rx, err := compilePattern(p)
			if err != nil {
				continue
			}
			m.patterns = append(m.patterns, rx)
			match = rx.MatchString
		}
		// A name reaches every process the script started so far, also
		// those a subshell orphaned (`(server &); …; pkill -f server`);
		// -P $$ only the shell's own children.
		jobs := w.p.jobs
		if children {
			jobs = w.sh.jobs
		}
		name := func(argv []string) string {
			if full {
				return strings.Join(argv, " ")
			}
			if len(argv[0]) > 15 && r.name != "killall" {
				return argv[0][:15] // the kernel's process name
			}
			return argv[0]
		}
		for _, j := range jobs {
			if argv := j.commandLine(); argv != nil && !j.setsid && !(children && j.kind == jobForked) && match(name(argv)) {
				m.kills = append(m.kills, j)
			} else if argv := j.tailCommandLine(); argv != nil && match(name(argv)) {
				m.tails = append(m.tails, j)
			}
		}
	}
	return m, true
}

// negatedPid reports whether a kill operand is -$pid: the process group
// of that pid (under set -m, a job's).
func negatedPid(a *syntax.Word) bool {
	l, ok := a.Parts[0].(*syntax.Lit)
	return ok && len(a.Parts) > 1 && strings.HasPrefix(l.Value, "-")
}

// isSignal reports whether s names a signal as a -SIG option does: a number
// or an upper-case name, with or without SIG.
func isSignal(s string) bool {
	if isDigits(s) {
		return true
	}
	s = strings.TrimPrefix(s, "SIG")
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return s != ""
}

// isShellPid reports whether a word is $$ (or ${$}).
func isShellPid(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "$" && pe.Exp == nil && pe.Index == nil
}

// jobsPidsToKill reports whether a pipeline is `jobs -p | xargs kill`: the
// shell's jobs listed and signalled (bash lists the parent's jobs in the
// pipeline's subshell).
func jobsPidsToKill(c *syntax.BinaryCmd) bool {
	args := pipedToKill(c)
	if args == nil {
		return false
	}
	x := c.X.Cmd.(*syntax.CallExpr)
	if len(x.Args) < 2 || x.Args[0].Lit() != "jobs" {
		return false
	}
	pflag := false
	for _, a := range x.Args[1:] {
		o := a.Lit()
		if !strings.HasPrefix(o, "-") {
			return false // named jobs only
		}
		pflag = pflag || strings.Contains(o, "p")
	}
	if !pflag {
		return false
	}
	sig, _, list := killArgs(args[:len(args)-1])
	return !list && terminates(sig)
}

// pipedToKill reads `CMD | xargs kill [OPTIONS]` (cat pidfile | xargs
// kill -9, echo "$!" | xargs kill) as the kill it runs: `kill [OPTIONS]
// $(CMD)`. It returns those arguments, or nil for any other pipeline.
func pipedToKill(c *syntax.BinaryCmd) []*syntax.Word {
	if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
		return nil
	}
	y, ok := c.Y.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	r := resolve(y.Args)
	if r.name != "xargs" {
		return nil
	}
	if _, ok := c.X.Cmd.(*syntax.CallExpr); !ok {
		return nil
	}
	for _, inner := range runCommands(r) {
		if r := resolve(inner); r.name == "kill" && len(inner) > 0 {
			subst := &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Left: c.X.Pos(), Right: c.X.End(), Stmts: []*syntax.Stmt{c.X}}}}
			return append(slices.Clip(inner[1:]), subst)
		}
	}
	return nil
}

// lastStmt is the statement a background statement's subshell runs last:
// the right of its last && or ||, the last of a ( ) or { } body.
func lastStmt(s *syntax.Stmt) *syntax.Stmt {
	for {
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
				return s
			}
			s = c.Y
		case *syntax.Subshell:
			if len(c.Stmts) == 0 {
				return s
			}
			s = c.Stmts[len(c.Stmts)-1]
		case *syntax.Block:
			if len(c.Stmts) == 0 {
				return s
			}
			s = c.Stmts[len(c.Stmts)-1]
		default:
			return s
		}
	}
}

// assignsOnly reports whether a statement only assigns variables (which
// the shell does itself, its $( ) included, without a process of its own).
func assignsOnly(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) == 0 && len(ce.Assigns) > 0 && !s.Background
}

// softSignal reports whether sig is SIGTERM (kill's default) or SIGINT,
// which a background subshell of mksh defers.
func softSignal(sig string) bool {
	switch signalName(sig) {
	case "", "TERM", "15", "INT", "2":
		return true
	}
	return false
}

// isLastPid reports whether a word is just $! (quoted or not).
func isLastPid(word *syntax.Word) bool {
	parts := word.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "!" && pe.Exp == nil
}

// sigSet is a set of the signals a kill commonly sends, for those the
// shell ignores (see shell.ignored).
type sigSet uint8

// sigBit is sig's member of sigSet ("" is kill's default, TERM), or 0.
func sigBit(sig string) sigSet {
	switch signalName(sig) {
	case "", "TERM", "15":
		return 1 << 0
	case "HUP", "1":
		return 1 << 1
	case "INT", "2":
		return 1 << 2
	case "QUIT", "3":
		return 1 << 3
	case "USR1", "10":
		return 1 << 4
	case "USR2", "12":
		return 1 << 5
	}
	return 0
}

// ignores reports whether the job ignores sig from its start: one the
// shell ignored then (a trap with an empty action), or SIGHUP under nohup.
func (j *job) ignores(sig string) bool {
	b := sigBit(sig)
	return b != 0 && (j.ignored&b != 0 || j.nohup && b == sigBit("HUP"))
}
