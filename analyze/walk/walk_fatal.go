package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// assignsReadonly reports whether s assigns a parameter the shell keeps
// read-only (see dialect.readonlyParams), an error that ends a
// non-interactive shell before anything after it runs: zsh's $status is
// $?, so a test script's `npm test; status=$?; kill $SERVER_PID; exit
// $status` ends at the assignment under zsh and leaves the server (zsh
// says "read-only variable: status"; checked under zsh 5.9, in a function
// too, and `||` after it does not help).
func (w *walker) assignsReadonly(s *syntax.Stmt) bool {
	d := w.sh.d
	if d.ReadonlyParams == nil || s.Background {
		return false
	}
	var assigns []*syntax.Assign
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		assigns = c.Assigns
	case *syntax.DeclClause:
		assigns = c.Args
	case *syntax.ForClause:
		wi, ok := c.Loop.(*syntax.WordIter)
		return ok && len(wi.Items) > 0 && d.ReadonlyParams.Has(wi.Name.Value)
	}
	for _, a := range assigns {
		if a.Name != nil && d.ReadonlyParams.Has(a.Name.Value) {
			return true
		}
	}
	return false
}

// equalsFails reports whether a word of the simple command s is one zsh
// expands by its EQUALS option to the path of a command that cannot exist,
// an error that ends the shell before the command runs (without its EXIT
// traps): an unquoted word that starts with `==` or `=~` names the command
// `=` or `~`. So the bash habit `if [ "$1" == "ci" ]` ends a zsh script
// there ("= not found"), before the kill after it (checked under zsh 5.9;
// `[[ $1 == ci ]]` and a quoted "==" are not expanded).
func (w *walker) equalsFails(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !w.sh.d.EqualsExpands || s.Background {
		return false
	}
	for _, a := range c.Args {
		if l, ok := a.Parts[0].(*syntax.Lit); ok && len(l.Value) > 1 && l.Value[0] == '=' && strings.ContainsRune("=~", rune(l.Value[1])) {
			return true
		}
	}
	return false
}

// assignsIndexZero reports whether s assigns element 0 of an array where
// arrays count from 1 (zsh without KSH_ARRAYS: "assignment to invalid
// subscript range"), an error that ends a non-interactive shell before
// anything after it runs, in a function too and without its EXIT trap
// (checked under zsh 5.9): the bash habit `server & pids[0]=$!` ends a zsh
// script there and leaves the server.
func (w *walker) assignsIndexZero(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !w.sh.d.ZeroIndexFatal || w.sh.kshArrays || s.Background {
		return false
	}
	for _, a := range ce.Assigns {
		if word, ok := a.Index.(*syntax.Word); ok && a.Name != nil && knowledge.WordLit(word) == "0" {
			return true
		}
	}
	return false
}

// shellEnds marks that the shell the caller started ends here, on an
// error a non-interactive shell exits on (a special builtin that fails,
// an unset variable under set -u, a signal it sent itself): nothing after
// it runs. Only where the command runs for sure, in the shell's own
// process (not a subshell, a job, a nested shell), and in mksh not inside
// a function (see dialect.funcErrorReturns).
func (w *walker) shellEnds() bool {
	if !w.surelyRuns() || w.job != nil || w.sh.async || w.sh.kind != shTop || w.nest.depth != 0 {
		return false
	}
	if w.sh.d.FuncErrorReturns && len(w.fns.calling) > 0 {
		return false
	}
	w.p.ended = true
	return true
}

// fatal is an error that ends the shell it happens in (see shellEnds for
// the errors): the script's own shell, or a subshell or nested shell,
// whose commands after it never run while its parent goes on. zsh's `(set
// -m; nohup server >log 2>&1 &)` starts nothing there ("can't change
// option: -m" without a terminal), nor does dash's `(set -o pipefail;
// server &)`. As for shellEnds, only where the command runs for sure.
func (w *walker) fatal() bool {
	if w.sh.kind == shTop {
		return w.shellEnds()
	}
	if !w.surelyRuns() || w.sh.d.FuncErrorReturns && len(w.fns.calling) > 0 {
		return false
	}
	w.sh.ended = true
	return true
}

// surelyRuns reports whether the command being walked runs for sure once
// its shell runs: not behind && or || (w.cond), in a branch of an if or
// case or in a round of a loop that may not run (w.branching, w.again)
// that the shell itself entered. `if [ -t 1 ]; then set -m; fi; server &`
// starts the server under zsh when the output is no terminal; `if [ -t 1
// ]; then (set -m; server &); fi` never does.
func (w *walker) surelyRuns() bool {
	return w.sh.maybes == maybes{w.sureCond(), w.branching, w.again}
}

// stopped reports whether the shell being walked has ended: the script's
// own (pass.ended) or the subshell or nested shell the walk is in (an
// error that ended it, see fatal). What follows in it never runs.
func (w *walker) stopped() bool { return w.p.ended || w.sh.ended }
