package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// exitKind says whether running a statement in the current shell ends
// that shell (exit, or exec of a program) before the statements after it.
type exitKind uint8

const (
	endsNever  exitKind = iota
	endsMaybe           // `./tests || exit 1`: what follows may not run
	endsSurely          // `exit`, `{ …; exit 1; }`, `false || exit 1`
)

// exits tells whether s ends the shell it runs in. An exit inside a
// compound of the current shell ends it as a bare one does: `./tests ||
// exit 1; kill $!` leaves the server running when the tests fail, so the
// kill after it is a maybe, like one behind `&&`. A subshell, a job, a
// pipeline element or a substitution only end themselves. A function
// call ends the shell when its body does. depth bounds the look into
// functions (recursion).
func (w *walker) exits(s *syntax.Stmt, depth int) exitKind {
	if depth > maxNested {
		return endsNever
	}
	if badDup(s.Redirs, w.sh.d) {
		// dash, mksh: the command never runs (see badDupEffect); mksh's
		// error in a function only returns from it.
		if w.dupEnds(s) && (depth == 0 || !w.sh.d.FuncErrorReturns) {
			return endsSurely
		}
		return endsNever
	}
	if s.Background || s.Coprocess {
		return endsNever
	}
	if s.Negated && w.sh.errexit {
		sh, on := w.errexitOff() // (set -e ends nothing inside)
		k := w.exits(s, depth)
		errexitOn(sh, on)
		return k
	}
	if ends(s) {
		if knowledge.IsCallOf(s.Cmd, "return") && !w.returnEnds(depth) {
			return endsNever // the function's, not the shell's (see stmts)
		}
		return endsSurely
	}
	if len(w.src.Bad) > 0 && w.stmtBadSubst(s) {
		return endsSurely // dash: echo ${x[@]} says "Bad substitution"
	}
	if k := w.errexitExits(s, depth); k != endsNever {
		return k // set -e; … false (see walk_errexit.go)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if w.killEndsShell(c) {
			return endsSurely // kill $$ (see kill_self.go)
		}
		if found, _ := w.nestedMayKillParent(s, c); found {
			return endsMaybe // sh -c 'cd app && kill $PPID' (see walk_ppidkill.go)
		}
		if k, ok := w.evalExits(c, depth); ok {
			return k // eval 'exit 1' (see walk_evalexits.go)
		}
		execs, body := w.callEnds(c)
		if execs {
			return endsSurely // exec "$@": a program whatever the words
		}
		if body != nil {
			if !w.lookInto() {
				return endsMaybe // (see lookahead.go)
			}
			return w.exits(body, depth+1)
		}
	case *syntax.Block:
		return w.listExits(c.Stmts, depth)
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			if w.sh.d.LastPipeHere {
				return w.exits(lastPipeElem(c), depth) // zsh runs it itself
			}
			return endsNever // a pipeline: its elements are subshells
		}
		sh, on := w.errexitOff()
		x := w.exits(c.X, depth)
		errexitOn(sh, on)
		if x == endsSurely {
			return endsSurely
		}
		y := w.exits(c.Y, depth)
		switch st := w.status(c.X); {
		case st == 0:
			return max(x, min(y, endsMaybe))
		case (st > 0) == (c.Op == syntax.AndStmt):
			return max(x, y) // Y runs for sure
		}
		return x
	case *syntax.IfClause:
		all, any := true, false
		for ic := c; ic != nil; ic = ic.Else {
			st := 0
			if n := len(ic.Cond); n > 0 {
				st = w.condStatus(ic.Cond) // (if ! kill -0 $P: known, see probesAlive)
			}
			sh, on := w.errexitOff()
			k := w.listExits(ic.Cond, depth)
			errexitOn(sh, on)
			if st >= 0 {
				k = max(k, w.listExits(ic.Then, depth))
			}
			all = all && k == endsSurely
			any = any || k != endsNever
			if st > 0 {
				break // this branch runs: the ones after it never do
			}
			if ic.Else == nil && len(ic.Cond) > 0 {
				all = false // no else: no branch may run
			}
		}
		switch {
		case all:
			return endsSurely
		case any:
			return endsMaybe
		}
	case *syntax.WhileClause:
		sh, on := w.errexitOff()
		k := w.listExits(c.Cond, depth)
		errexitOn(sh, on)
		return min(max(k, w.listExits(c.Do, depth)), endsMaybe)
	case *syntax.ForClause:
		return min(w.listExits(c.Do, depth), endsMaybe)
	case *syntax.CaseClause:
		return w.caseExits(c, depth)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return w.exits(c.Stmt, depth)
		}
	case *syntax.Subshell:
		if found, _ := forkMayKill(c); found {
			return endsMaybe // (cd /tmp && kill $$): see walk_forkkill.go
		}
		if found, _ := w.subshellMayKillParent(c); found {
			return endsMaybe // (cd app && sh -c 'kill $PPID'): see walk_ppidkill.go
		}
	}
	return endsNever
}

// listExits is exits for a list run in order: the first statement that
// ends it for sure decides, a maybe before it makes the end a maybe only
// if nothing after ends it for sure.
func (w *walker) listExits(list []*syntax.Stmt, depth int) exitKind {
	k := endsNever
	for _, s := range list {
		switch w.exits(s, depth) {
		case endsSurely:
			return endsSurely
		case endsMaybe:
			k = endsMaybe
		}
	}
	return k
}

// execsSomething reports whether a simple command is exec with a command
// word, literal or not (`exec "$@"`, the last line of many entrypoints):
// the shell becomes that program. Bare exec only redirects.
func execsSomething(c *syntax.CallExpr) bool {
	return execWord(c) != -1
}

// execWord is the index of the first word after exec and its options
// in c (see execsSomething), -1 where c is no exec with a command word.
func execWord(c *syntax.CallExpr) int {
	if len(c.Args) == 0 || knowledge.WordLit(c.Args[0]) != "exec" {
		return -1
	}
	for i, a := range c.Args[1:] {
		switch o := knowledge.WordLit(a); {
		case o == "--":
			continue
		case o == "-a":
			return -1 // its argument follows; too rare to follow
		case len(o) > 1 && o[0] == '-':
			continue // -c, -l
		}
		return i + 1
	}
	return -1
}

// status is the statement's exit status as far as it is known (see
// status), with what the dialect knows: zsh, dash and mksh refuse `wait
// -n`, so `wait -n || exit 1` always exits there.
func (w *walker) status(s *syntax.Stmt) int {
	if !s.Background && badDup(s.Redirs, w.sh.d) {
		if s.Negated {
			return 1
		}
		return -1 // mksh: `cmd >&/dev/null && kill $!` never kills
	}
	st := knowledge.StatusIn(s, 0, w.callStatus)
	if w.trapRefused(s) {
		st = -1 // dash: trap … SIGINT EXIT says "bad trap"
		if s.Negated {
			st = 1
		}
	}
	if st == 0 && !s.Background && w.testRefused(s) {
		st = -1 // dash: "[[: not found", "[: a: unexpected operator"
		if s.Negated {
			st = 1
		}
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && st == 0 && !s.Background {
		st = w.missingStatus(ce, s.Negated) // dash: "source: not found"
	}
	if st == 0 && !s.Background {
		st = w.prevStatus(s) // [ $? -ne 0 ] after kill -0 $P
	}
	if st == 0 && !s.Background && knowledge.SafeRedirs(s.Redirs) {
		st = w.literalTestStatus(s) // [ "$(uname)" = Linux ]
	}
	if st == 0 && !s.Background && (w.groupKillFails(s) || w.specKillFails(s) || w.killGetsNoPid(s)) {
		st = -1
		if s.Negated {
			st = 1
		}
	}
	if st == 0 && knowledge.SafeRedirs(s.Redirs) && w.probesAlive(s) {
		st = 1 // kill -0 $P of a job that runs on
		if s.Negated {
			st = -1
		}
	}
	if st != 0 || w.sh.d.WaitOptions || s.Background {
		return st
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && knowledge.WordLit(ce.Args[0]) == "wait" {
		if o := knowledge.WordLit(ce.Args[1]); len(o) > 1 && o[0] == '-' {
			st = -1
			if s.Negated {
				st = 1
			}
		}
	}
	return st
}

// callStatus is the status of a call of a function the script defines
// for sure (no other definition may be in force), as its body says:
// `start() { server & }; start && kill $!` kills.
func (w *walker) callStatus(ce *syntax.CallExpr) int {
	if st := w.missingStatus(ce, false); st != 0 {
		return st // (inside an and-or list or a group: see status)
	}
	if len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return 0
	}
	if r := w.p.resolveCall(ce); w.callsFunc(r) && w.fns.funcs[r.Name].other == nil {
		return funcStatus(w.fns.funcs[r.Name].body)
	}
	return 0
}

// funcStatus is a function's status as far as its body says (see status):
// that of its last command, or of the literal return that ends it (a bare
// return has the status of the command before it), when no return before
// it may end the call.
func funcStatus(body *syntax.Stmt) int {
	b, ok := body.Cmd.(*syntax.Block)
	if !ok || len(body.Redirs) > 0 {
		return 0
	}
	list := b.Stmts
	n := len(list)
	if n == 0 {
		return 0
	}
	for _, s := range list[:n-1] {
		if returnsEarly(s) {
			return 0 // `if …; then return 1; fi; server &`: either
		}
	}
	last := list[n-1]
	ce, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || knowledge.WordLit(ce.Args[0]) != "return" || last.Background {
		return knowledge.Status(last)
	}
	st := 0
	switch {
	case len(ce.Args) == 1 && n > 1:
		st = knowledge.Status(list[n-2])
	case len(ce.Args) == 2 && knowledge.IsDigits(knowledge.WordLit(ce.Args[1])):
		st = -1
		if knowledge.WordLit(ce.Args[1]) == "0" {
			st = 1
		}
	}
	if last.Negated {
		st = -st
	}
	return st
}

// returnsEarly reports whether s holds a return anywhere.
func returnsEarly(s *syntax.Stmt) bool {
	return knowledge.Holds(s, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "return") })
}

// groupKillFails reports whether s is a kill of process groups (`kill --
// -$PID`) none of which exists: the jobs its operands name lead no group
// (no setsid, no GNU timeout, no set -m; under set -m mksh's pipeline
// jobs, whose $! is not the leader), so kill finds no such process
// and fails. `kill -- -$api_pid 2>/dev/null || kill $api_pid` then always
// runs its plain kill.
func (w *walker) groupKillFails(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "kill" {
		return false
	}
	_, ops, list := dialect.KillArgs(ce.Args[1:])
	if list || len(ops) == 0 {
		return false
	}
	for _, a := range ops {
		if !negatedPid(a) || isShellPid(&syntax.Word{Parts: a.Parts[1:]}) {
			return false
		}
		named, all, _ := w.jobsNamed([]*syntax.Word{{Parts: a.Parts[1:]}})
		if all || len(named) == 0 {
			return false
		}
		for _, j := range named {
			if j.Setsid || j.timeoutGroup || j.leadsGroup || w.sh.monitor && (j.Kind != jobPipeline || w.sh.d.NegPidFindsJob) {
				return false // (under set -m, see dropLeaderlessGroups)
			}
		}
	}
	return true
}

// killGetsNoPid reports whether s is a kill whose operands all expand to
// nothing (see argJobs): kill without a pid prints its usage and fails.
// `kill $(jobs -p)` where jobs lists none (zsh's and dash's EXIT trap)
// fails so, which under set -e ends the trap there.
func (w *walker) killGetsNoPid(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 {
		return false
	}
	if r := w.p.resolveCall(ce); r.Name != "kill" || r.Wrapped || w.callsFunc(r) {
		return false
	}
	_, ops, list := dialect.KillArgs(ce.Args[1:])
	if list || len(ops) == 0 {
		return false
	}
	for _, a := range ops {
		if _, _, empty := w.argJobs(a); !empty || hasQuotes(a) {
			return false
		}
	}
	return true
}

// trapRefused reports whether s is a trap command that fails, naming a
// signal the shell refuses (see dialect.trapRefuses).
func (w *walker) trapRefused(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || w.sh.d.TrapRefuses == 0 || len(ce.Args) < 3 || knowledge.WordLit(ce.Args[0]) != "trap" {
		return false
	}
	args := ce.Args[1:]
	if knowledge.WordLit(args[0]) == "--" {
		args = args[1:]
	}
	return len(args) > 1 && len(w.sh.d.TrapSets(args[1:])) < len(args)-1
}

// testRefused reports whether s is a test the shell cannot run and so
// fails for sure: `[ a == b ]` and `test a == b` where test knows no ==
// (see dialect.testNoDoubleEquals; `[[ … ]]` where [[ is no keyword is a
// command not found: see missingCommand).
func (w *walker) testRefused(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	a, d := ce.Args, w.sh.d
	switch knowledge.WordLit(a[0]) {
	case "[":
		return d.TestNoDoubleEquals && len(a) == 5 && knowledge.WordLit(a[2]) == "==" && knowledge.WordLit(a[4]) == "]"
	case "test":
		return d.TestNoDoubleEquals && len(a) == 4 && knowledge.WordLit(a[2]) == "=="
	}
	return false
}

// specKillFails reports whether s is a kill of job specs none of which
// names a job it can signal, so that the kill fails for sure and
// `kill %?server 2>/dev/null || kill $!` runs its right side (checked
// under the four shells). A spec by name (`%?str`, `%name`) that matches no
// job is "no such job" everywhere, and so is one several jobs match in
// bash, dash and mksh (zsh signals the one of the highest number:
// dialect.specPicksHighest). dash signals the process group of the job a
// spec names (dialect.specsSignalGroup), which only a job that made one
// has: while none of its jobs did, every spec fails there, `kill %1` too.
func (w *walker) specKillFails(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || w.sh.monitor || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "kill" || w.fns.funcs["kill"] != nil {
		return false
	}
	_, ops, list := dialect.KillArgs(ce.Args[1:])
	if list || len(ops) == 0 {
		return false
	}
	d := w.sh.d
	groups := slices.ContainsFunc(w.sh.jobs, func(j *Job) bool { return j.Setsid || j.timeoutGroup || j.leadsGroup })
	for _, a := range ops {
		lit := argText(a)
		name, found := strings.CutPrefix(lit, "%")
		if !found {
			return false
		}
		if d.SpecsSignalGroup {
			if groups {
				return false
			}
			continue
		}
		if sub, ok := strings.CutPrefix(name, "?"); ok {
			name = sub
		} else if knowledge.IsDigits(name) || name == "" || name == "%" || name == "+" || name == "-" {
			return false // %1, %%: which job holds the number is the table's
		}
		if match := w.specMatches(lit); len(match) == 1 || len(match) > 1 && d.SpecPicksHighest {
			return false
		}
	}
	return true
}
