package rewrite

import (
	"bytes"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
)

// A Promotion splits a command into the background jobs a job manager should
// own (shexec's managed jobs, or an agent's own run_in_background) and
// the script that still runs in the foreground.
//
// The manager starts the jobs, in order, then runs Foreground (if it is
// not empty). That is the original order only for jobs that come first in
// the script, so a plan promotes only the leading run of top-level
// background statements; a job after a foreground command that does real
// work (`npm install; npm run dev &`) stays in the foreground script, since
// it may depend on that work having finished, or not run at all if the
// script exits first.
//
// What a promoted job inherits from the script: its shell state. Only
// state-only statements may precede a promoted job — cd, pushd, export,
// readonly, declare/typeset/local, unset, plain assignments, set, shopt,
// umask, alias, function definitions, with no command substitution, no
// redirection and no special parameter like `$$` — and they are copied,
// as written, into the job's Prelude, to run in the job's own shell before
// its command. Run that way (Job.Script), the job starts in the directory,
// with the variables, options and functions it had in the original, and
// the prelude stays in the foreground too for the commands after it.
//
// Not promoted, so the script keeps its meaning: a job whose pid the
// script uses later (`$!`, anywhere after it, even in a trap or eval
// string), a job the script waits for, kills, disowns or names by job
// spec (`wait`, `jobs`, `fg`, `bg`, `disown`, `%1` after it), a job whose
// text uses `$$`, `$!` or positional or dynamic parameters (they differ in
// the manager's shell), a job with a here-document, a coproc, `setsid -f`,
// any statement nested in a function, loop, group or `bash -c` string,
// and a zsh background and-or list that is not the last statement unless
// its first command is state-only and joined by && (zsh runs the first
// commands in its foreground: `cd app && npm run dev &` changes the
// directory of what follows; see zshListKeep).
type Promotion struct {
	// Foreground is the source with the promoted jobs taken out, every
	// other byte as written. It is "" when nothing but the jobs' preludes
	// is left: like the original, whose last statement is asynchronous, it
	// then has nothing to do and exits 0.
	Foreground string
	// Jobs are the promoted background statements, in source order.
	Jobs []Job
}

// Job is a promoted background statement.
type Job struct {
	// Command is the statement as written, without its & and the blanks
	// before it: `cd app && npm run dev &` gives `cd app && npm run dev`.
	Command string
	// Prelude holds the state-only statements that preceded the job, as
	// written, each followed by a newline; "" when there were none.
	Prelude string
	// Start and End are the bytes of the source the job took out of the
	// foreground: the statement and its &.
	Start, End int
	// Holds reports whether the job, run from the original script, would
	// have kept the caller's stdout or stderr open: the reason to promote.
	Holds bool
}

// Script is what the manager runs in the job's shell: the prelude, then
// the command.
func (j Job) Script() string { return j.Prelude + j.Command }

// Plan analyzes src and splits it into a Promotion. A source that does not
// parse returns the analyzer's *analyze.ParseError. A source with nothing
// to promote gives a plan whose Foreground is src and which has no jobs.
func Plan(src []byte, opts ...analyze.Option) (*Promotion, error) {
	res, err := analyze.Run(src, opts...)
	if err != nil {
		return nil, err
	}
	return PlanResult(src, res, opts...), nil
}

// PlanResult is Plan for a source already analysed: res is what
// analyze.Run gave for src with the same options. A caller that has the
// Result (hook.Decide) does not analyse the command again; only the
// foreground left after the jobs are taken out is new, and is analysed.
func PlanResult(src []byte, res *analyze.Result, opts ...analyze.Option) *Promotion {
	none := &Promotion{Foreground: string(src)}
	if res.Reread {
		return none // its tree is not of src: no cutting at its offsets
	}
	byStart := map[int]analyze.Job{}
	for _, j := range res.Jobs {
		if j.TopLevel && j.Amp >= 0 {
			byStart[j.Head] = j
		}
	}
	after := blockers(src, res.File)

	var (
		plan    Promotion
		prelude strings.Builder
		inPrel  []*syntax.Stmt // state statements that went into a prelude
		keeps   []string       // what stays in the foreground of each job's statement
	)
	for _, s := range res.File.Stmts {
		start := int(s.Pos().Offset())
		if s.Background {
			j, ok := byStart[start]
			if !ok || j.Resolved || j.Brief || after(start) || !promotable(s) {
				break
			}
			keep, ok := zshListKeep(src, s, j, s == res.File.Stmts[len(res.File.Stmts)-1])
			if !ok {
				break
			}
			cmd := trimBlanks(src[j.Head:j.Amp])
			plan.Jobs = append(plan.Jobs, Job{Command: string(cmd), Prelude: prelude.String(), Start: j.Head, End: j.End, Holds: j.HoldsOutput})
			keeps = append(keeps, keep)
			continue
		}
		if !stateOnly(s) {
			break
		}
		prelude.Write(trimBlanks(bytes.TrimSuffix(src[start:s.End().Offset()], []byte(";"))))
		prelude.WriteByte('\n')
		inPrel = append(inPrel, s)
	}
	if len(plan.Jobs) == 0 {
		return none
	}

	var fg []byte
	last := 0
	for i, j := range plan.Jobs {
		fg = append(fg, src[last:j.Start]...)
		fg = append(fg, keeps[i]...)
		last = j.End
	}
	fg = append(fg, src[last:]...)
	rest, err := analyze.Run(fg, opts...)
	if err != nil {
		return none // cannot happen: whole statements were taken out
	}
	// Only the preludes left (they precede the last job): nothing to do.
	lastJob := plan.Jobs[len(plan.Jobs)-1].Start
	inPrelude := 0
	for _, s := range inPrel {
		if int(s.End().Offset()) <= lastJob {
			inPrelude++
		}
	}
	if len(rest.File.Stmts) == inPrelude {
		plan.Foreground = ""
	} else {
		plan.Foreground = string(fg)
	}
	return &plan
}

// zshListKeep says whether the job of a zsh background and-or list (the
// last pipeline, Job.Head before its Start) can be promoted, and what of
// the statement stays in the foreground. zsh ran the list's first
// commands in its own foreground (`cd app && npm run dev &` changes the
// directory of what follows), so promoted whole they would run in the
// job's shell only: that is the same when nothing follows the list, or
// when the first command is state-only and joined by && (`cd app`, which
// then stays in the foreground too: `cd app && npm run dev & sleep 5`
// gives the job `cd app && npm run dev` and the foreground `cd app;
// sleep 5`). Any other job keeps nothing.
func zshListKeep(src []byte, s *syntax.Stmt, j analyze.Job, last bool) (string, bool) {
	if j.Head == j.Start || last {
		return "", true
	}
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.AndStmt || !stateOnly(b.X) {
		return "", false
	}
	return string(src[b.X.Pos().Offset():b.X.End().Offset()]) + ";", true
}

// trimBlanks drops the blanks and line continuations before a job's &.
func trimBlanks(b []byte) []byte {
	for {
		n := len(b)
		b = bytes.TrimRight(b, " \t")
		b = bytes.TrimSuffix(b, []byte("\\\n"))
		if len(b) == n {
			return b
		}
	}
}

// blockers returns a function telling whether something after an offset
// refers to the jobs started before it: `$!` (also inside quoted code),
// wait, jobs, fg, bg, disown, or a job spec.
func blockers(src []byte, f *syntax.File) func(off int) bool {
	last := -1
	for _, pat := range [][]byte{[]byte("$!"), []byte("${!}"), []byte("${!:"), []byte("${!-"), []byte("${!+"), []byte("${!=")} {
		if i := bytes.LastIndex(src, pat); i > last {
			last = i
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			return true
		}
		block := false
		switch ce.Args[0].Lit() {
		case "wait", "jobs", "fg", "bg", "disown":
			block = true
		case "kill":
			for _, a := range ce.Args[1:] {
				if strings.HasPrefix(a.Lit(), "%") {
					block = true
				}
			}
		}
		if off := int(ce.Pos().Offset()); block && off > last {
			last = off
		}
		return true
	})
	return func(off int) bool { return last > off }
}

// promotable: the statement can run in a shell of its own, started by a
// manager, with the same meaning.
func promotable(s *syntax.Stmt) bool {
	if s.Coprocess || s.Disown {
		return false
	}
	if _, ok := s.Cmd.(*syntax.CoprocClause); ok {
		return false
	}
	ok := true
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				ok = false // its body lies past the statement (an empty body has no Hdoc)
			}
		case *syntax.ParamExp:
			if !ordinaryParam(n) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// dynamicParam: a variable whose value differs in another shell or at
// another time. A switch, not a map every hook start would build.
func dynamicParam(name string) bool {
	switch name {
	case "BASHPID", "RANDOM", "SRANDOM", "SECONDS", "EPOCHREALTIME",
		"EPOCHSECONDS", "LINENO", "BASH_COMMAND", "PPID", "BASH_SUBSHELL",
		"PIPESTATUS", "BASH_LINENO", "FUNCNAME", "BASH_SOURCE", "SHLVL":
		return true
	}
	return false
}

// ordinaryParam: a named variable that means the same in the manager's
// shell (not `$$`, `$!`, `$?`, `$1`, `$@`, `$RANDOM`…).
func ordinaryParam(pe *syntax.ParamExp) bool {
	if pe.Param == nil {
		return false
	}
	name := pe.Param.Value
	if name == "" || dynamicParam(name) {
		return false
	}
	c := name[0]
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// stateOnly: a foreground statement that only changes the shell's own
// state, prints nothing when it works, and has no effect outside the
// shell, so running it again in the job's shell is harmless.
func stateOnly(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess || s.Negated || len(s.Redirs) > 0 {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.FuncDecl:
		// Defines, runs nothing; but the job may call it, so its body must
		// not depend on which shell runs it.
		ok := true
		syntax.Walk(c.Body, func(n syntax.Node) bool {
			if pe, isPE := n.(*syntax.ParamExp); isPE && pe.Param != nil {
				switch v := pe.Param.Value; {
				case v == "$" || v == "!" || dynamicParam(v) && v != "FUNCNAME" && v != "LINENO":
					ok = false
				}
			}
			return ok
		})
		return ok
	case *syntax.CallExpr:
		if len(c.Args) > 0 && !stateCommand(c.Args[0].Lit(), c.Args[1:]) {
			return false
		}
	case *syntax.DeclClause:
		if !stateCommand(c.Variant.Value, nil) {
			return false
		}
		for _, a := range c.Args {
			if a.Name == nil && !declOption(a.Value.Lit()) {
				return false // -p, -f, -F print; a word we cannot read
			}
		}
		if len(c.Args) == 0 {
			return false // prints every variable
		}
	default:
		return false
	}
	ok := true
	syntax.Walk(s.Cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.Redirect:
			ok = false // runs something, or has side effects ($((i++)))
		case *syntax.ParamExp:
			if !ordinaryParam(n) || n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// stateCommand: a builtin that, with these arguments, changes the shell's
// state and prints nothing (`cd -`, `set`, `export -p`, `alias` without
// arguments print; pushd prints the stack).
func stateCommand(name string, args []*syntax.Word) bool {
	lits := make([]string, len(args))
	for i, a := range args {
		lits[i] = a.Lit()
	}
	switch name {
	case ":":
		return true
	case "cd":
		return len(lits) == 0 || (lits[0] != "-" && !strings.HasPrefix(lits[0], "-"))
	case "export", "readonly", "declare", "typeset", "local":
		if args == nil {
			return true // a DeclClause: its words are checked by the caller
		}
		return false
	case "unset":
		return len(lits) > 0
	case "set":
		// set -e, set -euo pipefail, set +x: options, never a bare listing.
		if len(lits) == 0 {
			return false
		}
		for i, l := range lits {
			if l == "" || l == "-o" || l == "+o" {
				if l == "" || i+1 >= len(lits) {
					return false
				}
				continue
			}
			if l[0] != '-' && l[0] != '+' && (i == 0 || (lits[i-1] != "-o" && lits[i-1] != "+o" && !strings.HasSuffix(lits[i-1], "o"))) {
				return false // positional parameters: set -- a b
			}
		}
		return true
	case "shopt":
		return len(lits) > 1 && (lits[0] == "-s" || lits[0] == "-u")
	case "umask":
		return len(lits) == 1 && lits[0] != "" && lits[0][0] != '-'
	case "alias":
		if len(args) == 0 {
			return false
		}
		for _, a := range args {
			if l, ok := a.Parts[0].(*syntax.Lit); !ok || !strings.Contains(l.Value, "=") {
				return false // alias name prints the alias
			}
		}
		return true
	}
	return false
}

// declOption: an attribute option of declare/export that prints nothing.
func declOption(o string) bool {
	if len(o) < 2 || (o[0] != '-' && o[0] != '+') {
		return false
	}
	for _, c := range o[1:] {
		if !strings.ContainsRune("xrilaugAn", c) {
			return false
		}
	}
	return true
}
