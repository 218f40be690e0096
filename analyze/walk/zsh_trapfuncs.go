package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// zsh's trap functions (zshmisc(1), Trap Functions): defining `TRAPTERM()
// { kill $c; }` sets the trap on SIGTERM, as `trap 'kill $c' TERM` does,
// in place of what was set on it (Src/exec.c's execfuncdef calls settrap
// for a name TRAP followed by a signal's); `unfunction TRAPTERM` removes
// it. "If the function returns zero, the signal is assumed to have been
// handled, and execution continues normally. Otherwise, the shell will
// behave as interrupted except that the return status of the trap is
// retained": Src/signals.c's dotrapargs sets breaks and errflag after a
// function trap that returned non-zero, and the shell, or the background
// job's subshell, ends there. `(TRAPTERM() { kill $c; return 1 }; server &
// c=$!; wait) & … kill $!` stops the server and the subshell with it;
// with `return 0` the subshell goes on after its wait. A subshell keeps
// the trap functions (entersubsh, Src/exec.c, unsets every trap but those
// of ZSIG_FUNC): `TRAPTERM() { kill $c; }; (server & c=$!; wait) & … kill
// $!` stops the server, where `trap 'kill $c' TERM` before the job would
// not. TRAPEXIT is the EXIT trap (see dialect.exitTrapFunc), which no
// subshell runs. Checked under zsh 5.9.

// trapFunc makes the function fn the trap on the signal its name (TRAP
// and the signal's) names, where the shell has trap functions.
func (w *walker) trapFunc(fn *syntax.FuncDecl) {
	name := fn.Name.Value
	b := trapFuncSig(name, w.sh.d)
	if b == 0 || !w.trapSure() {
		return
	}
	start, end := int(fn.Body.Pos().Offset()), int(fn.Body.End().Offset())
	if start < 0 || end > len(w.src.Text) || start >= end {
		return
	}
	w.dropSigTraps(b)
	w.sh.ignored &^= b
	// The action is the body's code: the trap runs when a kill reaches
	// the job whose shell set it, after that shell's functions are gone.
	offs := make([]int, end-start)
	for i := range offs {
		offs[i] = start + i
	}
	code := string(w.src.Text[start:end])
	t := sigTrap{sigs: b, trapBody: w.trapBody(nil, code, offs, true), fn: true, ends: trapFuncEnds(fn.Body)}
	w.sh.sigTraps = append(w.sh.sigTraps, t)
}

// untrapFunc removes the trap the function name set, as the function
// goes (`unfunction TRAPTERM`).
func (w *walker) untrapFunc(name string) {
	if b := trapFuncSig(name, w.sh.d); b != 0 {
		w.dropSigTraps(b)
	}
}

// trapFuncSig is the signal a function of this name traps, or 0.
func trapFuncSig(name string, d *dialect.Dialect) dialect.SigSet {
	sig, ok := strings.CutPrefix(name, "TRAP")
	if !d.TrapFuncs || !ok || sig == "" {
		return 0
	}
	return dialect.SigBit(sig)
}

// trapFuncEnds reports whether a trap function's body ends the shell it
// runs in: it exits, or its last command is a return of a status other
// than a literal 0 (zshmisc's `return $(( 128 + $1 ))`).
func trapFuncEnds(body *syntax.Stmt) bool {
	b, ok := body.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) == 0 {
		return false
	}
	for _, s := range b.Stmts {
		if knowledge.IsCallOf(s.Cmd, "exit") {
			return true
		}
	}
	last, ok := b.Stmts[len(b.Stmts)-1].Cmd.(*syntax.CallExpr)
	return ok && len(last.Args) > 1 && knowledge.WordLit(last.Args[0]) == "return" && knowledge.WordLit(last.Args[1]) != "0"
}

// keptTraps appends to dst the traps of the parent shell that a subshell
// keeps: its trap functions, but for a background job's (async) those on
// SIGINT and SIGQUIT, which entersubsh sets to be ignored there.
func keptTraps(dst, parent []sigTrap, async bool) []sigTrap {
	for _, t := range parent {
		if async {
			t.sigs &^= dialect.SigBit("INT") | dialect.SigBit("QUIT")
		}
		if t.fn && t.sigs != 0 {
			dst = append(dst, t)
		}
	}
	return dst
}
