package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Commands that fail where they look as if they run, and so end the
// shell under set -e or count as its status: a kill of groups or pids
// that do not exist, a trap or test the shell refuses, a kill of job
// specs no job matches (see walker.status and walker.exits).

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
