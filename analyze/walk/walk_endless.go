package walk

import (
	"slices"
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Loops whose condition never changes. A while or until loop ends when
// its condition's status turns, or when its body leaves it (break, exit,
// return, exec, a signal to the shell). Where the condition's status is
// the same every round, the loop either never runs its body or never
// ends; the shell decides which as much as the script does: dash has no
// `[[` and no `source` ("[[: not found", status 127), so
//
//	until [[ -f ready ]]; do sleep 1; done
//
// never ends there, and `while [[ ! -f ready ]]; do …; done` never runs
// its body (checked under dash 0.5.12; bash, zsh and mksh end the first
// once the file exists). A break behind such a condition never runs
// either: `while true; do [[ -f ready ]] && break; sleep 1; done` never
// ends in dash. A loop that never ends in the foreground holds its
// caller until the caller gives up, the same as a server there: SG3001
// reports it (the one rule that says a foreground command never ends).

// constStatus is the status a condition has every time it runs: 1 it
// succeeds, -1 it fails, 0 it may change from round to round. Only what
// cannot change counts: true, false, `:`, a builtin the shell does not
// have (missingStatus), a test the shell refuses (testRefused), and
// and-or lists and negations of them; a program, a test of a file or a
// `kill -0` of a job (which answers differently once the job is gone) is
// 0. why names the builtin the shell lacks, when that decided it.
func (w *walker) constStatus(s *syntax.Stmt) (st int, why string) {
	if s.Background || s.Coprocess || !knowledge.SafeRedirs(s.Redirs) {
		return 0, ""
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 || len(c.Assigns) > 0 {
			return 0, ""
		}
		name := knowledge.WordLit(c.Args[0])
		switch {
		case w.missingStatus(c, false) < 0:
			st, why = -1, name
		case w.testRefused(s):
			st, why = -1, name
		case len(c.Args) > 1 || w.p.defined[name]:
			return 0, ""
		case name == "true" || name == ":":
			st = 1
		case name == "false":
			st = -1
		}
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			return 0, ""
		}
		x, wx := w.constStatus(c.X)
		// X decides alone where it short-cuts Y
		if x < 0 && c.Op == syntax.AndStmt || x > 0 && c.Op == syntax.OrStmt {
			st, why = x, wx
			break
		}
		if x == 0 {
			return 0, ""
		}
		st, why = w.constStatus(c.Y)
		if why == "" {
			why = wx
		}
	default:
		return 0, ""
	}
	if s.Negated {
		st = -st
	}
	return st, why
}

// loopStatus is what the condition of a while or until loop does every
// round when it cannot change (see constStatus): stays (+1, the loop goes
// on for ever unless its body leaves), stops (-1, the body never runs),
// or 0. The statements before the condition's last run every round and
// do not decide it.
func (w *walker) loopStatus(c *syntax.WhileClause) (int, string) {
	n := len(c.Cond)
	if n == 0 {
		return 0, ""
	}
	st, why := w.constStatus(c.Cond[n-1])
	if c.Until {
		st = -st
	}
	return st, why
}

// skipsLoop reports a loop whose body never runs: its condition stops it
// the first time, by a status that cannot change.
func (w *walker) skipsLoop(c *syntax.WhileClause) bool {
	st, _ := w.loopStatus(c)
	return st < 0
}

// noteEndlessLoop marks a loop the shell never leaves: its condition
// keeps it going every round and nothing in it may leave it (mayLeave).
// In the foreground (not a job, not under a timeout that cuts it) it
// never ends, which SG3001 reports; a job of it never ends either, which
// the walk counts already (a loop is a program of unknown length).
func (w *walker) noteEndlessLoop(c *syntax.WhileClause) {
	if w.sh.async || w.job != nil || w.cut != nil || w.sh.errexit {
		return
	}
	st, why := w.loopStatus(c)
	if st <= 0 || w.mayLeave(c.Cond, 0, &why) || w.mayLeave(c.Do, 0, &why) {
		return
	}
	what := "(a loop with no way out) never ends"
	if why != "" {
		what = "never ends: " + w.sh.d.Lang.String() + " has no `" + why + "` (\"" + why + ": not found\", status 127), which fails every round, so the loop never leaves; use `[ ]`, `.` or what the shell has"
	}
	start, end := w.src.Outer(int(c.Pos().Offset())), w.src.Outer(int(c.End().Offset()))
	w.mark(mark{Rule: "SG3001", Start: start, End: end, What: what})
}

// mayLeave reports whether running list may leave the loop it is the
// body of, nested inside depth loops of that body: a break out of it, an
// exit, return or exec, code the walk does not follow here (eval, `.`,
// a function the script defines, a kill that may reach the shell), unless
// a status that cannot change keeps it from running (`[[ -f x ]] &&
// break` in dash, `if false`); *why gets the builtin the shell lacks
// that kept one from running, when it has none yet.
func (w *walker) mayLeave(list []*syntax.Stmt, depth int, why *string) bool {
	for _, s := range list {
		if w.stmtMayLeave(s, depth, why) {
			return true
		}
	}
	return false
}

func (w *walker) stmtMayLeave(s *syntax.Stmt, depth int, why *string) bool {
	if s.Background || s.Coprocess {
		return false // (a job's exit ends the job)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		if w.missingStatus(c, false) < 0 {
			return false // dash's `source env.sh`: not found, nothing runs
		}
		name := knowledge.WordLit(c.Args[0])
		switch name {
		case "break":
			n := 1
			if len(c.Args) > 1 {
				if v, err := strconv.Atoi(knowledge.WordLit(c.Args[1])); err == nil {
					n = v
				} else {
					return true
				}
			}
			return n > depth
		case "exit", "return", "exec", "eval", ".", "source", "kill", "pkill", "killall", "trap", "set", "shift":
			return true
		case "":
			return true // a command word the walk cannot read
		}
		return w.p.defined[name]
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			if x, wx := w.constStatus(c.X); x < 0 && c.Op == syntax.AndStmt || x > 0 && c.Op == syntax.OrStmt {
				if *why == "" {
					*why = wx
				}
				return w.stmtMayLeave(c.X, depth, why)
			}
		}
		return w.stmtMayLeave(c.X, depth, why) || w.stmtMayLeave(c.Y, depth, why)
	case *syntax.Block:
		return w.mayLeave(c.Stmts, depth, why)
	case *syntax.Subshell:
		return w.mayLeave(c.Stmts, depth, why) // (kept: a kill of $$ there ends the script)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if w.mayLeave(ic.Cond, depth, why) {
				return true
			}
			st, wx := 0, ""
			if n := len(ic.Cond); n > 0 {
				st, wx = w.constStatus(ic.Cond[n-1])
			}
			if st < 0 && *why == "" {
				*why = wx
			}
			if st >= 0 && w.mayLeave(ic.Then, depth, why) {
				return true
			}
			if st > 0 {
				break // the else branches never run
			}
		}
		return false
	case *syntax.WhileClause:
		return w.mayLeave(c.Cond, depth+1, why) || w.mayLeave(c.Do, depth+1, why)
	case *syntax.ForClause:
		return w.mayLeave(c.Do, depth+1, why)
	case *syntax.CaseClause:
		for _, it := range c.Items {
			if w.mayLeave(it.Stmts, depth, why) {
				return true
			}
		}
		return false
	case *syntax.FuncDecl, *syntax.DeclClause, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		return false
	}
	return true // time, coproc, select…: not followed here
}

// noteEndlessWait marks a wait in the foreground that never returns: a
// wait for all jobs, or for named ones, of which one never ends (a
// server, watcher or follower: endlessKind), or `wait -n` when every job
// it may return for never ends. `./server & ./worker & wait` holds the
// caller as a server in the foreground does (SG3001); `npm test & npm run
// lint & wait` ends with the tests.
func (w *walker) noteEndlessWait(s syntax.Node, pending, named []*Job, nflag, all bool) {
	if w.sh.async || w.job != nil || w.cut != nil || s == nil {
		return
	}
	jobs := pending
	if !all {
		jobs = nil
		for _, j := range named {
			if slices.Contains(pending, j) {
				jobs = append(jobs, j)
			}
		}
	}
	var what string
	endless := 0
	for _, j := range jobs {
		if k := jobEndless(j); k != "" {
			endless++
			what = k
		}
	}
	if endless == 0 || nflag && endless < len(jobs) {
		return
	}
	start, end := w.src.Outer(int(s.Pos().Offset())), w.src.Outer(int(s.End().Offset()))
	w.mark(mark{Rule: "SG3001", Start: start, End: end, What: "waits for a job that never ends " + what})
}

// jobEndless says what kind of never-ending program a job runs (see
// endlessKind): its program, or the last command of a compound job.
func jobEndless(j *Job) string {
	words := j.Prog
	if j.Kind == JobCompound && j.Tail != nil {
		if ce, ok := j.Tail.Cmd.(*syntax.CallExpr); ok {
			words = ce.Args
		}
	}
	if len(words) == 0 {
		return ""
	}
	r := knowledge.Resolve(words)
	if r.Name == "tail" && slices.ContainsFunc(r.Args, pidOption) {
		return "" // tail -f --pid=$P ends with P (see walk_tailpid.go)
	}
	return knowledge.EndlessKind(r)
}

// pidOption reports tail's --pid option, whose value is usually $P.
func pidOption(a *syntax.Word) bool {
	if len(a.Parts) == 0 {
		return false
	}
	l, ok := a.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "--pid")
}
