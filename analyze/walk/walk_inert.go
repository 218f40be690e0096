package walk

import (
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A function is walked where it is called, with the caller's descriptors
// (walker.callFunc), so a script that calls a helper fifty times walked its
// body fifty times (up to maxFuncWalks, then a lighter pass). Most helpers
// start, stop and redirect nothing: walking them again can only add their
// duration again. For those, later calls replay the duration the first
// walk measured instead of walking (half of the walk over the machine's
// own scripts, bench/lint.sh).

// inertBreakers are the commands whose walk does more than take time: they
// start, stop, wait for or hand over processes, redirect the shell, or run
// code of their own.
var inertBreakers = knowledge.SetOf(`wait kill pkill killall trap exec eval source . setsid nohup disown
coproc fg bg jobs xargs ssh builtin`)

// funcCost is what a walk of a function body added to the shell's time.
type funcCost struct {
	measured bool
	slow     int
	bounded  time.Duration
	// inert: 1 the body can only take time, -1 it may do more, 0 not
	// known yet; decided for a given set of defined functions (inertFor).
	inert    int8
	inertFor int
}

// replayCall applies a call of fn without walking it when that cannot
// change what the walk finds, and reports whether it did.
func (w *walker) replayCall(fn *function) bool {
	if !fn.cost.measured || w.job != nil || w.worker != nil || w.nest.tailWatch != nil || !w.inertFunc(fn) {
		return false
	}
	w.slow += fn.cost.slow
	w.bounded += fn.cost.bounded
	return true
}

// inertFunc reports whether fn's body only runs commands in the foreground
// of the current shell that start, stop and redirect nothing: no background
// statement, coprocess or process substitution, no $!, no function
// definition or call of a defined function, and none of inertBreakers,
// shells, wrappers, servers or daemonizing programs.
func (w *walker) inertFunc(fn *function) bool {
	if fn.cost.inert != 0 && fn.cost.inertFor == len(w.fns.funcs) {
		return fn.cost.inert > 0
	}
	ok := true
	knowledge.Inspect(fn.body, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			ok = !n.Background && !n.Coprocess && !n.Disown
		case *syntax.ProcSubst, *syntax.FuncDecl, *syntax.CoprocClause:
			ok = false
		case *syntax.ParamExp:
			ok = n.Param == nil || n.Param.Value != "!"
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				ok = w.inertCall(n.Args)
			}
		}
		return ok
	})
	fn.cost.inert, fn.cost.inertFor = -1, len(w.fns.funcs)
	if ok {
		fn.cost.inert = 1
	}
	return ok
}

// inertCall reports whether running the simple command args can only take
// time: a call of an inert function, `command -v`, `set` without -m, or a
// command that is none of inertBreakers, a shell, a wrapper, a server or a
// daemonizing program.
func (w *walker) inertCall(args []*syntax.Word) bool {
	name := knowledge.WordLit(args[0])
	switch {
	case name == "":
		return false // a command that is not a literal
	case name == "command":
		return len(args) > 1 && (knowledge.WordLit(args[1]) == "-v" || knowledge.WordLit(args[1]) == "-V")
	case name == "set":
		for _, a := range args[1:] {
			if o := knowledge.WordLit(a); o == "" || o == "monitor" || (strings.HasPrefix(o, "-") || strings.HasPrefix(o, "+")) && strings.Contains(o, "m") {
				return false // set -m turns job control on
			}
		}
		return true
	case w.fns.funcs[name] != nil:
		fn := w.fns.funcs[name]
		if w.fns.inertVisiting[fn] {
			return false // recursion: decided elsewhere, not inert here
		}
		if w.fns.inertVisiting == nil {
			w.fns.inertVisiting = map[*function]bool{}
		}
		w.fns.inertVisiting[fn] = true
		defer delete(w.fns.inertVisiting, fn)
		return w.inertFunc(fn)
	case inertBreakers.Has(name) || w.p.Cfg.Servers[name] || dialect.DialectOfProgram(name) != nil:
		return false
	}
	return knowledge.KindOf(name)&(knowledge.KWrapper|knowledge.KServer|knowledge.KDaemon) == 0
}
