package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// return outside a function. Agents copy `cd app || return 1` and `[ -f
// .env ] || return` out of functions into command lines, where no
// function is running: zsh, dash and mksh (and bash in POSIX mode) then
// end the shell as exit would, EXIT trap and all, while bash refuses the
// return ("can only `return' from a function or sourced script", status
// 2) and goes on with the next command (dialect.returnOutsideFails;
// checked under the four shells, in a subshell, $(…) and eval too). In
// a function, or a script the shell sources, return ends that alone.

// inBody walks, through walk, code that a return ends without ending the
// shell: a function's body not reached by a call (key names it, as
// callFunc's names the function), or a sourced script.
func (w *walker) inBody(key string, walk func()) {
	if w.fns.calling == nil {
		w.fns.calling = map[string]bool{}
	}
	had := w.fns.calling[key]
	w.fns.calling[key] = true
	walk()
	w.fns.calling[key] = had
	if !had {
		delete(w.fns.calling, key)
	}
}

// returnExits reports whether a return walked now ends the shell: no
// function or sourced script runs (depth > 0: the walk looks into the
// body of a function the statement calls), and the shell does not
// refuse it.
func (w *walker) returnExits(depth int) bool {
	return depth == 0 && len(w.fns.calling) == 0 && !w.sh.d.ReturnOutsideFails
}

// returnEnds reports whether exits counts a return walked now as an end:
// one that ends the shell, or, while afterReturn asks, one that ends the
// body being walked.
func (w *walker) returnEnds(depth int) bool {
	return depth == 0 && w.ends.countReturns || w.returnExits(depth)
}

// afterReturn reports whether s, in a function's body or a sourced
// script, surely returns; after one that may return, what follows in the
// body is a maybe (w.cond, and *maybe counts it for stmts to undo), as
// after `&&`, but not for the shell: the caller goes on either way. `f()
// { server & P=$!; ready || return 1; kill $P; }` leaves the server when
// ready fails, while a kill that every return stops first (`ready || {
// kill $P; return 1; }`) ends it on every path (see noteExitKills).
func (w *walker) afterReturn(s *syntax.Stmt, maybe *int) bool {
	if len(w.fns.calling) == 0 || !returnsEarly(s) && !w.evalsReturn(s) {
		return false
	}
	w.ends.countReturns = true
	defer func() { w.ends.countReturns = false }()
	switch w.exits(s, 0) {
	case endsSurely:
		return true
	case endsMaybe:
		old, renewed := w.scope(), *maybe > 0
		if renewed {
			w.condRenew()
		} else {
			*maybe = 1
			w.condIn()
		}
		w.noteExitKills(s, old, renewed)
		w.guardBehind(s)
	}
	return false
}

// guardBehind makes the guard of `GUARD || return` (or exit) one for the
// rest of the list, which runs only where the guard held: `stop() { [ -n
// "$P" ] || return 0; kill $P; }` stops the server whenever there is one,
// as `[ -n "$P" ] && kill $P` does (see guardOf). So does `if [ -z "$P"
// ]; then echo "not running"; exit 0; fi`, whose rest runs only where its
// condition failed. stmts drops it at the end of the list.
func (w *walker) guardBehind(s *syntax.Stmt) {
	if s.Negated {
		return
	}
	var g guard
	ok := false
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.OrStmt && w.exits(c.Y, 0) == endsSurely {
			g, ok = guardOf(c.X, true)
		}
	case *syntax.IfClause:
		if n := len(c.Then); c.Else == nil && len(c.Cond) == 1 && n > 0 && w.exits(c.Then[n-1], 0) == endsSurely {
			g, ok = guardOf(c.Cond[0], false)
		}
	}
	if ok {
		w.guards = append(w.guards, condGuard{g, w.cond})
	}
}

// returnFails reports whether s is a return that the shell refuses and
// goes on after (see returnExits).
func (w *walker) returnFails(s *syntax.Stmt) bool {
	return knowledge.IsCallOf(s.Cmd, "return") && len(w.fns.calling) == 0 && w.sh.d.ReturnOutsideFails
}
