package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A shell that kills itself with a signal it traps runs the trap's action
// there (bash, zsh, dash and mksh handle a pending signal between
// commands, right after the kill builtin returns): `trap 'kill $P' TERM;
// server & P=$!; …; kill $$` stops the server and goes on, and so does
// zsh's trap function, `TRAPTERM() { kill $P }`, or a trap a function
// put back as it returned under LOCAL_TRAPS (see zsh_functraps.go). An
// action that exits ends the shell there, its EXIT trap run; a trap
// function that returns a status other than 0 ends it as the signal
// would have (see kill_self.go). Checked under the four shells in both
// caller modes.

// selfTrap returns the trap the shell being walked has on sig when this
// kill (operands ops, already parsed) signals the shell itself, or nil.
func (w *walker) selfTrap(sig string, ops []*syntax.Word) *sigTrap {
	if !slices.ContainsFunc(ops, w.selfOperand) {
		return nil
	}
	return w.trapOn(sig)
}

// trapOn returns the trap the shell being walked has on sig, a signal
// that ends a shell, or nil.
func (w *walker) trapOn(sig string) *sigTrap {
	if !terminates(sig) || uncatchable(sig) {
		return nil
	}
	return w.sh.trapFor(sig)
}

// runSelfTrap walks the action of the trap t the shell's own kill ran,
// in the shell itself, and ends the shell when the action exits. An action
// that kills its own shell again without resetting the trap (`trap 'kill
// -- -$$' TERM EXIT`) is walked once: the four shells run it again after
// each run, thousands of times a second and without end, and a walk that
// followed them never ended either (a fuzzer's input overflowed the stack).
func (w *walker) runSelfTrap(t sigTrap) {
	if slices.Contains(w.traps.selfTraps, t.code) {
		return
	}
	w.traps.selfTraps = append(w.traps.selfTraps, t.code)
	defer func() { w.traps.selfTraps = w.traps.selfTraps[:len(w.traps.selfTraps)-1] }()
	w.runTraps([]trapBody{t.trapBody})
	if t.ends || !actionExits(w, t.code) {
		return // (an ending trap function: diesOf, deferred by kill)
	}
	if w.surelyRuns() {
		switch {
		case w.sh.kind != shTop:
			w.sh.ended = true
		case w.job == nil && w.nest.depth == 0:
			w.p.ended = true
		}
	}
}

// actionExits reports whether a trap's action code runs exit at its top,
// or in the body of a function it calls there (`trap cleanup TERM` with
// `cleanup() { kill $P; exit 0; }`).
func actionExits(w *walker, code string) bool {
	f, err := w.p.ParseNested(code, w.sh.d.Variant)
	if err != nil {
		return false
	}
	return listExits(w, f.Stmts, 0)
}

func listExits(w *walker, list []*syntax.Stmt, depth int) bool {
	return slices.ContainsFunc(list, func(s *syntax.Stmt) bool {
		ce, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || s.Background || len(ce.Args) == 0 {
			return false
		}
		if knowledge.WordLit(ce.Args[0]) == "exit" {
			return true
		}
		fn := w.fns.funcs[knowledge.WordLit(ce.Args[0])]
		if fn == nil || depth > 4 || !w.lookInto() {
			return false
		}
		b, ok := fn.body.Cmd.(*syntax.Block)
		return ok && listExits(w, b.Stmts, depth+1)
	})
}
