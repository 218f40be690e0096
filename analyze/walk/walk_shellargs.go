package walk

import (
	"strconv"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// The positional parameters of a nested shell: `sh -c 'SCRIPT' NAME
// ARGS…` runs SCRIPT with $0 NAME and $1… ARGS, and a -c string given
// no words after it runs with none. Entrypoints and the wrappers agents
// write around them end in `exec "$@"` (`sh -c 'server & exec "$@"' sh
// ./app`), test `$#` first (`[ "$#" -ne 0 ] && exec "$@"`), or hand pids
// on (`sh -c 'kill "$1"' sh $P`). With no words, "$@" expands to nothing
// and `exec "$@"` is an exec without a command: it only redirects, so the
// shell goes on and its EXIT trap runs (all four shells). The command
// line's own arguments stay unknown (see walk_args.go).

// scriptParams is the positional parameters a shell's arguments args
// give its -c string (the words after the string and its $0), and
// whether it has a -c string.
func scriptParams(args []*syntax.Word) ([]*syntax.Word, bool) {
	a := dialect.ReadShellArgs(args)
	if a.Script == nil {
		return nil, false
	}
	if len(a.After) == 0 {
		return nil, true
	}
	return a.After[1:], true
}

// shellFrame is the frame of positional parameters the nested shell r,
// run by the statement s, starts with, resolved where it is started; nil
// where they are not known: no -c string, or a shell that find -exec or
// xargs runs (see runCommands), which put file names for `{}` or append
// the words they read.
func (w *walker) shellFrame(r knowledge.Resolved, s *syntax.Stmt) *argFrame {
	if ce, ok := s.Cmd.(*syntax.CallExpr); !ok || w.p.resolveCall(ce).Head != r.Head {
		return nil
	}
	params, ok := scriptParams(r.Args)
	if !ok {
		return nil
	}
	return w.bindArgs(params, &argFrame{})
}

// execsNothing reports whether the command words of an exec (see
// execWord) all expand to nothing: "$@" where the walk knows there are no
// positional parameters, unquoted $@ or $* where those there are all
// empty. The exec then only redirects.
func (w *walker) execsNothing(c *syntax.CallExpr) bool {
	i := execWord(c)
	if i == -1 {
		return false
	}
	n, counted := w.paramCount()
	all, ok := w.posArg(-2)
	for _, a := range c.Args[i:] {
		pe, quoted := loneParam(a)
		switch {
		case pe == nil || pe.Param.Value != "@" && pe.Param.Value != "*":
			return false
		case quoted && (pe.Param.Value == "*" || !counted || n != "0"):
			return false // ("$*" is one empty word, and so is "$@" of one: exec fails)
		case !quoted && !(ok && all.known && all.empty && len(all.jobs) == 0):
			return false
		}
	}
	return true
}

// execs reports whether c is an exec that replaces the shell with a
// program (see execsSomething), as far as the walk knows.
func (w *walker) execs(c *syntax.CallExpr) bool {
	return execsSomething(c) && !w.execsNothing(c)
}

// paramCount is the value of $# where the walk knows how many
// positional parameters there are.
func (w *walker) paramCount() (string, bool) {
	f := w.fns.args
	if f == nil || f.open || f.drift {
		return "", false
	}
	return strconv.Itoa(len(f.args)), true
}

// caseWordValue is the value of a case's word where the walk knows it: a
// constant of the script, or a positional parameter that a call or a
// nested shell's arguments bind, empty where there is none (`sh -c 'case
// "$1" in start) server & ;; *) echo usage ;; esac' sh` runs only the
// usage; with `sh start`, only the server). Entrypoints and start/stop
// scripts dispatch on $1 this way.
func (w *walker) caseWordValue(word *syntax.Word) (string, bool) {
	if v := w.wordValue(word); v != "" {
		return v, true
	}
	pe, _ := loneParam(word)
	if pe == nil || !plainParam(pe) || posIndex(pe.Param.Value) < 0 {
		return "", false
	}
	p, ok := w.posArg(posIndex(pe.Param.Value))
	return "", ok && p.known && p.empty && len(p.jobs) == 0
}
