package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Kills of a process group ps looks up: `kill -- -$(ps -o pgid= -p "$DEV"
// | tr -d ' ')`, `kill -TERM -"$(ps -o pgid= $$ | xargs)"`, as agents and
// reviewers suggest to stop a dev server "and everything it started"
// (handarbeit/fabrik#1016). ps prints the number of the group the process
// is in. Without job control every job stays in the shell's group, so the
// group of a job's pid, as the group of $$, is the one the shell runs in:
// the operand signals what `kill 0` signals, the shell and all its jobs
// (and, where the caller started the shell in its own group, as make and
// Python do, the caller too). A job that leads a group of its own (set -m,
// a background setsid or timeout) makes it that job's group: -$PID.
// Checked under bash, zsh, dash and mksh as group leaders (the group-mode
// run would signal the test itself).

// groupsLookedUp takes out of ops each operand that signals a group ps
// looked up, and a subshell's -$$ where the script leads its group. The shell's own group becomes the operand 0 (in a subshell
// followed by $$, in a nested shell the script runs by $PPID: the group
// is the script's, so the script dies of it too, as of their kill of $$
// and $PPID); a job's own group is returned in groups,
// for killLookedUp. Operands it cannot judge are kept as they are.
func (w *walker) groupsLookedUp(ops []*syntax.Word) (rest []*syntax.Word, groups []*Job) {
	if !slices.ContainsFunc(ops, negatedPid) {
		return ops, nil
	}
	own := func(j *Job) bool { return j.monitorGroup || (j.Setsid || j.timeoutGroup) && j.Kind == JobSimple }
	for _, a := range ops {
		pid, pad, ok := w.psGroupOf(a)
		if !ok && w.sh.kind == shSubshell && w.nest.depth == 0 && w.p.Cfg.Caller == dialect.CallerGroupLeader && len(a.Parts) == 2 && isShellPid(&syntax.Word{Parts: a.Parts[1:]}) {
			pid, ok = &syntax.Word{Parts: a.Parts[1:]}, true // a subshell's -$$: the script leads the group
		}
		var js []*Job
		if ok && !isShellPid(pid) {
			js, _, _ = w.jobsNamed([]*syntax.Word{pid})
		}
		switch {
		case !ok || !isShellPid(pid) && len(js) == 0:
			rest = append(rest, a)
		case pad == padSplit:
			rest = append(rest, w.splitGroup(pid, js, own)...) // (see kill_pgidsplit.go)
		case pad == padKept && !w.sh.d.GroupBlanks:
			rest = append(rest, knowledge.LitWord("-")) // `-   123`: refused
		case isShellPid(pid) || !slices.ContainsFunc(js, own):
			rest = append(rest, knowledge.LitWord("0"))
			switch {
			case w.sh.kind == shSubshell:
				rest = append(rest, paramWord("$"))
			case w.kills.ppidScript != nil:
				rest = append(rest, paramWord("PPID")) // sh -c '…': and its parent, the script
			}
		case !slices.ContainsFunc(js, func(j *Job) bool { return !own(j) }):
			groups = append(groups, js...)
		default:
			rest = append(rest, a) // jobs of both kinds: not judged
		}
	}
	return rest, groups
}

// killLookedUp signals the groups of the jobs groupsLookedUp found
// leading their own: under set -m the job's whole group, which ps names
// whichever process of a pipeline job it was given (mksh's $! is its last
// process, which leads nothing: `-$!` reaches no group there, the looked
// up number does); a background setsid or timeout, the group it made.
func (w *walker) killLookedUp(groups []*Job, sig string) {
	for _, j := range groups {
		switch {
		case j.ignores(sig) || w.killLost(j, sig):
		case j.monitorGroup:
			w.killGroup(j, false)
		default:
			w.killGroup(j, true)
		}
	}
}

// psGroupOf reads a kill operand -$(ps -o pgid= -p PID | tr -d ' ') (the
// substitution quoted or not, or a variable the script sets to it once,
// `PGID=$(ps -o pgid= $P); kill -- -$PGID`) and returns the word naming
// PID. ps pads the number with blanks to the column's width, five
// characters: pad says whether a filter trims them (tr -d ' ', xargs, awk
// '{print $1}', grep -o, sed), and if not, whether the word splits there
// (see kill_pgidsplit.go).
func (w *walker) psGroupOf(a *syntax.Word) (pid *syntax.Word, pad padding, ok bool) {
	if len(a.Parts) != 2 {
		return nil, 0, false
	}
	if l, isLit := a.Parts[0].(*syntax.Lit); !isLit || l.Value != "-" {
		return nil, 0, false
	}
	var cs *syntax.CmdSubst
	quoted := false
	switch p := a.Parts[1].(type) {
	case *syntax.CmdSubst:
		cs = p
	case *syntax.ParamExp:
		cs, quoted = w.soleSubst(p), !w.splitsWords() // zsh: $PGID whole
	case *syntax.DblQuoted:
		quoted = true
		if len(p.Parts) == 1 {
			switch q := p.Parts[0].(type) {
			case *syntax.CmdSubst:
				cs = q
			case *syntax.ParamExp:
				cs = w.soleSubst(q)
			}
		}
	}
	if cs == nil || len(cs.Stmts) != 1 || cs.Stmts[0].Background {
		return nil, 0, false
	}
	elems := pipeElems(cs.Stmts[0])
	for _, e := range elems {
		if _, isCall := e.Cmd.(*syntax.CallExpr); !isCall || len(e.Redirs) > 0 {
			return nil, 0, false
		}
	}
	ps := w.p.resolveCall(elems[0].Cmd.(*syntax.CallExpr))
	if ps.Name != "ps" || ps.NoProgram {
		return nil, 0, false
	}
	pid, bare := w.psPgidOf(ps.Args)
	if pid == nil {
		return nil, 0, false
	}
	for _, e := range elems[1:] {
		if !w.trimsBlanks(w.p.resolveCall(e.Cmd.(*syntax.CallExpr))) {
			return nil, 0, false
		}
	}
	switch {
	case len(elems) > 1 || bare:
		return pid, padTrimmed, true
	case quoted:
		return pid, padKept, true
	}
	return pid, padSplit, true
}

// psPgidOf returns the pid whose group number `ps -o pgid= -p PID` (or
// `ps -p PID -o pgid=`, `ps -o pgid= PID`, `--pid`, `--no-headers`,
// `pgrp`) prints without a header, and nil for any other listing. bare
// says the column was given a width of one (`pgid:1=`), which no number
// is padded to.
func (w *walker) psPgidOf(args []*syntax.Word) (pid *syntax.Word, bare bool) {
	pgid, headless := false, false
	for i := 0; i < len(args); i++ {
		a := w.wordValue(args[i])
		switch {
		case a == "-o" || a == "o" || a == "--format":
			if i++; i == len(args) {
				return nil, false
			}
			col := w.wordValue(args[i])
			pgid, bare = psGroupColumn(col)
			headless = headless || strings.HasSuffix(col, "=")
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			pgid, bare = psGroupColumn(a[2:])
			headless = headless || strings.HasSuffix(a, "=")
		case a == "--no-headers" || a == "--no-heading" || a == "h":
			headless = true
		case a == "-p" || a == "p" || a == "--pid" || a == "-q":
			if i++; i == len(args) || pid != nil {
				return nil, false
			}
			pid = args[i]
		case a == "" || !strings.HasPrefix(a, "-"):
			if pid != nil {
				return nil, false
			}
			pid = args[i] // ps -o pgid= $$: a pid operand
		default:
			return nil, false
		}
	}
	if !pgid || !headless {
		return nil, false
	}
	return pid, bare
}

// psGroupColumn reads one -o column, `pgid=`, `pgrp=` or one with a width
// (`pgid:9=`): whether it is the group number, and whether its width is
// one, so that no number comes padded. Any other width pads the numbers
// shorter than it, as the default of five does.
func psGroupColumn(col string) (pgid, bare bool) {
	name, width, _ := strings.Cut(strings.TrimSuffix(col, "="), ":")
	return name == "pgid" || name == "pgrp", width == "1"
}

// trimsBlanks reports whether a filter after ps passes the one number on
// without the blanks ps pads it with.
func (w *walker) trimsBlanks(r knowledge.Resolved) bool {
	if r.NoProgram {
		return false
	}
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = w.wordValue(a)
	}
	switch r.Name {
	case "tr":
		return len(args) == 2 && (args[0] == "-d" || args[0] == "-ds") && (strings.Contains(args[1], " ") || strings.Contains(args[1], "[:space:]") || strings.Contains(args[1], "[:blank:]"))
	case "xargs":
		return len(args) == 0 || len(args) == 1 && args[0] == "echo"
	case "awk":
		return len(args) == 1 && strings.ReplaceAll(args[0], " ", "") == "{print$1}"
	case "grep":
		return len(args) == 2 && (args[0] == "-o" || args[0] == "-Eo" || args[0] == "-oE") && strings.HasPrefix(args[1], "[0-9]")
	case "sed":
		return len(args) == 1 && strings.HasPrefix(args[0], "s/") && (strings.Contains(args[0], " ") || strings.Contains(args[0], "[[:space:]]"))
	}
	return false
}

// paramWord is the word $NAME.
func paramWord(name string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: name}}}}
}
