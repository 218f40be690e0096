package analyze

import (
	"strings"

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
	if d.readonlyParams == nil || s.Background {
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
		return ok && len(wi.Items) > 0 && d.readonlyParams.has(wi.Name.Value)
	}
	for _, a := range assigns {
		if a.Name != nil && d.readonlyParams.has(a.Name.Value) {
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
	if !ok || !w.sh.d.equalsExpands || s.Background {
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
	if !ok || !w.sh.d.zeroIndexFatal || s.Background {
		return false
	}
	for _, a := range ce.Assigns {
		if word, ok := a.Index.(*syntax.Word); ok && a.Name != nil && wordLit(word) == "0" {
			return true
		}
	}
	return false
}
