package walk

import (
	"regexp"
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// killByName applies pkill and killall: the jobs of the shell whose program
// the pattern matches end (see byName).
func (w *walker) killByName(r knowledge.Resolved) {
	m, ok := w.byName(r)
	if !ok || !terminates(m.sig) || w.jobsIgnore(m.sig) {
		return
	}
	if m.every {
		w.killEachJob(pipeEvery)
		return
	}
	for _, j := range m.kills {
		w.killed(j)
	}
	for _, j := range m.tails {
		w.end(j)
	}
	for _, j := range m.parents {
		w.killChildren(j)
	}
	if w.selfMatch(m) && w.shellEnds() && w.deathTakesGroup(m.sig) {
		// pkill -f finds the shell's own command line: it signals the
		// jobs it finds and the shell, which dies there (mksh leading its
		// group with its jobs).
		w.killEachJob(pipeEvery)
	}
}

// nameMatch is what pkill, killall or pgrep finds among the jobs: kills
// are jobs whose process it finds, tails compound jobs whose last command
// it finds (the subshell of `(cd app && server) &` waits for it: once the
// name stops that, the job ends) and pipeline jobs whose first process it
// finds when the rest end with it (`server | tee log &`), every: all the shell's children (-P $$).
type nameMatch struct {
	sig          string
	full         bool
	patterns     []*regexp.Regexp
	kills, tails []*Job
	every        bool
	parents      []*Job // pkill -P $!: the children of these jobs' processes
	newest       bool   // -n: only the newest process it finds
	// listed: of a process listing (see kill_pslist.go), whether it
	// lists the process of a command line; nil: any of patterns finds it
	listed func(line string) bool
}

// finds reports whether the match reaches the process of a command line
// (the shell's own, see selfMatch).
func (m nameMatch) finds(line string) bool {
	if m.listed != nil {
		return m.listed(line)
	}
	for _, rx := range m.patterns {
		if rx.MatchString(line) {
			return true
		}
	}
	return false
}

// byName finds the jobs pkill, killall or pgrep r names. They match their
// pattern (an extended regular expression) against the process name, or
// with -f against the whole command line; killall matches names exactly
// (with -r, as a regular expression); -F reads the pid from a file. ok is
// false when a pattern is not a literal, or options narrow the match to
// processes we cannot judge (a parent, a session, a pid file the walk
// does not follow).
func (w *walker) byName(r knowledge.Resolved) (m nameMatch, ok bool) {
	pgrep := r.Name == "pgrep" || r.Name == "pkill"
	full, exact, re, children, fold, newest := false, r.Name == "killall", false, false, false, false
	pidfile := ""
	var patterns []string
	args := r.Args
	for i := 0; i < len(args); i++ {
		a := w.wordValue(args[i])
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
				patterns = append(patterns, w.wordValue(p))
			}
			i = len(args)
		case pgrep && (a == "-f" || a == "--full"):
			full = true
		case pgrep && (a == "-x" || a == "--exact"):
			exact = true
		case pgrep && (a == "-i" || a == "--ignore-case"):
			fold = true
		case pgrep && (a == "-n" || a == "--newest"):
			newest = true
		case pgrep && (a == "-o" || a == "--oldest"):
			return m, false // the oldest match may be any process of the machine
		case pgrep && len(a) > 2 && a[1] != '-' && strings.Trim(a[1:], "fxien") == "":
			// -if, -fx, -fn…: options that take no argument, together
			full = full || strings.Contains(a, "f")
			exact = exact || strings.Contains(a, "x")
			fold = fold || strings.Contains(a, "i")
			newest = newest || strings.Contains(a, "n")
		case r.Name == "killall" && (a == "-r" || a == "--regexp"):
			re, exact = true, false
		case a == "--signal" || r.Name == "killall" && a == "-s":
			if i+1 < len(args) {
				i++
				m.sig = knowledge.Value(args[i])
			}
		case strings.HasPrefix(a, "--signal="):
			m.sig = strings.TrimPrefix(a, "--signal=")
		case pgrep && (a == "-P" || a == "--parent") && i+1 < len(args) && isShellPid(args[i+1]):
			i++
			children = true // pkill -P $$: the shell's children, its jobs
		case r.Name == "pkill" && (a == "-P" || a == "--parent") && i+1 < len(args) && w.namesJobs(args[i+1]):
			i++
			m.parents, _, _ = w.jobsNamed(args[i : i+1]) // pkill -P $!: see killChildren
		case pgrep && (a == "-F" || a == "--pidfile") && i+1 < len(args) && w.wordValue(args[i+1]) != "":
			i++
			pidfile = w.cleanName(args[i]) // pkill -F run.pid
		case pgrep && strings.ContainsAny(a[1:2], "gGPstFc") || r.Name == "killall" && strings.ContainsAny(a[1:2], "uoyn"):
			return m, false // narrowed by group, parent, session, terminal, age…
		case pgrep && (a == "-u" || a == "-U" || a == "--euid" || a == "--uid"):
			i++ // a user: the jobs run as us
		case r.Name != "pgrep" && len(a) > 1 && isSignal(a[1:]):
			m.sig = a[1:]
		}
	}
	if len(m.parents) > 0 {
		return m, len(patterns) == 0 && pidfile == "" && !children
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
		if fold {
			match = func(s string) bool { return strings.EqualFold(s, p) }
		}
		if !exact || re {
			if fold {
				p = "(?i)" + p
			}
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
		jobs := w.p.Jobs
		if children {
			jobs = w.sh.jobs
		}
		name := func(argv []string) string {
			if full {
				return strings.Join(argv, " ")
			}
			base := knowledge.ProgramName(argv[0]) // the file's name, as the kernel keeps it
			if len(base) > 15 && r.Name != "killall" {
				return base[:15] // the kernel's process name
			}
			return base
		}
		finds := func(argv []string) bool { return match(name(argv)) }
		m.addJobs(jobs, children, finds)
		if !children {
			w.bodyEnds(&m, finds)
		}
	}
	if newest {
		m.newest = true
		m.kills, m.tails = newestMatch(w.p.Jobs, m.kills, m.tails)
	}
	return m, true
}

// addJobs adds to m the jobs among jobs whose process finds matches by
// its argv: a one-process job (but the forked program of a job whose
// subshell is the shell's child, with children: -P $$), a compound job
// whose last command it matches, a pipeline job whose first process it
// matches (the rest follow it).
func (m *nameMatch) addJobs(jobs []*Job, children bool, finds func(argv []string) bool) {
	for _, j := range jobs {
		if argv := j.commandLine(); argv != nil && !(children && j.Kind == jobForked) && finds(argv) {
			m.kills = append(m.kills, j)
		} else if argv := j.tailCommandLine(); argv != nil && finds(argv) {
			m.tails = append(m.tails, j)
		} else if argv := j.headCommandLine(); argv != nil && finds(argv) {
			m.tails = append(m.tails, j) // its first process: the rest follow
		}
	}
}

// newestMatch keeps, of the jobs pkill -n matches, the one started last
// (all are in started, in order) that may still run: the newest process
// among them (the script's own jobs are the newest processes of the
// machine that match).
func newestMatch(started, kills, tails []*Job) ([]*Job, []*Job) {
	var last *Job
	for _, j := range slices.Backward(started) {
		if !j.Resolved() && (slices.Contains(kills, j) || slices.Contains(tails, j)) {
			last = j
			break
		}
	}
	switch {
	case last == nil:
		return nil, nil
	case slices.Contains(kills, last):
		return []*Job{last}, nil
	}
	return nil, []*Job{last}
}

// pipedToKill reads `CMD | xargs kill [OPTIONS]` (cat pidfile | xargs
// kill -9, echo "$!" | xargs kill, ps aux | grep '[v]ite' | awk '{print
// $2}' | xargs kill) as the kill it runs: `kill [OPTIONS] $(CMD)`. It
// returns those arguments, or nil for any other pipeline.
func pipedToKill(c *syntax.BinaryCmd) []*syntax.Word {
	if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
		return nil
	}
	for _, e := range pipeElems(c.X) {
		if _, ok := e.Cmd.(*syntax.CallExpr); !ok || e.Background {
			return nil // (a loop, a group: what it prints is not followed)
		}
	}
	if opts, ok := readKillLoop(c.Y); ok {
		subst := &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Left: c.X.Pos(), Right: c.X.End(), Stmts: []*syntax.Stmt{c.X}}}}
		return append(slices.Clip(opts), subst)
	}
	y, ok := c.Y.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	r := knowledge.Resolve(y.Args)
	if r.Name != "xargs" {
		return nil
	}
	for _, inner := range knowledge.RunCommands(r) {
		if r := knowledge.Resolve(inner); r.Name == "kill" && len(inner) > 0 {
			subst := &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Left: c.X.Pos(), Right: c.X.End(), Stmts: []*syntax.Stmt{c.X}}}}
			return append(slices.Clip(inner[1:]), subst)
		}
	}
	return nil
}

// readKillLoop reads `while read -r p; do kill [OPTIONS] "$p"; done`, the
// loop that signals each pid its stdin lists, as `xargs kill [OPTIONS]`:
// it returns the kill's arguments before the pid. `jobs -p | while read
// p; do kill $p; done` stops the jobs as `jobs -p | xargs kill` does
// (bash and mksh list the parent's jobs there).
func readKillLoop(s *syntax.Stmt) (opts []*syntax.Word, ok bool) {
	wc, ok := s.Cmd.(*syntax.WhileClause)
	if !ok || wc.Until || len(wc.Cond) != 1 || len(wc.Do) != 1 || s.Background || wc.Do[0].Background {
		return nil, false
	}
	rc, ok := wc.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(rc.Args) < 2 || knowledge.WordLit(rc.Args[0]) != "read" {
		return nil, false
	}
	for _, a := range rc.Args[1 : len(rc.Args)-1] {
		if knowledge.WordLit(a) != "-r" {
			return nil, false
		}
	}
	name := knowledge.WordLit(rc.Args[len(rc.Args)-1])
	kc, ok := wc.Do[0].Cmd.(*syntax.CallExpr)
	if !ok || !isName(name) {
		return nil, false
	}
	r := knowledge.Resolve(kc.Args)
	if r.Name != "kill" || r.Wrapped || len(r.Args) == 0 || pidOperand(r.Args[len(r.Args)-1]) != name {
		return nil, false
	}
	return r.Args[:len(r.Args)-1], true
}
