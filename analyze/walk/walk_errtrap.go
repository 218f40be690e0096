package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// The ERR trap: bash, zsh and mksh run it after a command of the script
// fails where set -e would end the shell (not in a condition, on the left
// of && or ||, negated, or before the last element of a pipeline), set -e
// or not, and before set -e ends the shell. zsh also calls it ZERR, and
// runs the function TRAPZERR the same way. dash refuses ERR (see
// dialect.trapRefuses). Measured under the four shells: `trap 'kill $P'
// ERR; server & P=$!; false; echo after` stops the server in bash, zsh and
// mksh, as does a failing function call or `( )`; `false || true`, `if
// false`, `! true` and `false | true` run no trap. Only failures the walk
// knows (see walker.status) are followed, at the script's top level; an
// ERR trap a command that may fail would run is not.

// errTrap records `trap ACTION ERR` (reset: `trap - ERR`, `trap "" ERR`)
// in the current shell, for sig one of the names it may be given.
func (w *walker) errTrap(args []*syntax.Word, sig string, single, reset bool) {
	if strings.ToUpper(sig) == "ZERR" && !w.sh.d.TrapFuncs || !w.trapSure() {
		return // ZERR: zsh's name only
	}
	w.sh.errTraps = w.sh.errTraps[:0]
	if reset || len(args) == 1 {
		return
	}
	if code, offs, ok := literalWithParams(args[0]); ok {
		w.sh.errTraps = append(w.sh.errTraps, w.trapBody(args[0], code, offs, single))
	}
}

// errTrapExits runs the ERR trap of the script's shell after s, a
// statement of its top level just walked, when s surely failed, and
// reports whether the trap's action ends the shell with an exit.
func (w *walker) errTrapExits(s *syntax.Stmt) bool {
	if w.p.ended || s.Background || s.Coprocess || s.Negated || w.sh.kind != shTop {
		return false
	}
	switch s.Cmd.(type) {
	case *syntax.CallExpr, *syntax.Subshell:
	default:
		return false
	}
	fn := w.sh.d.TrapFuncs && w.fns.funcs["TRAPZERR"] != nil
	if len(w.sh.errTraps) == 0 && !fn || w.status(s) >= 0 {
		return false
	}
	if fn {
		w.callFunc("TRAPZERR", nil, fdtable.Table{}) // zsh: TRAPZERR() { kill $P; }
	}
	if len(w.sh.errTraps) == 0 {
		return false
	}
	t := w.sh.errTraps[0]
	w.runTraps([]trapBody{t})
	return actionExits(w, t.code) // trap 'echo failed; exit 1' ERR
}
