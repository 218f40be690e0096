package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Functions: a call walks the body where it is called, with the caller's
// descriptors and in the caller's shell; a body no call reaches is walked
// at the end, in a shell of its own.

// callsFunc reports whether the command runs a function the script
// defined. A function hides the builtin or program of its name (`bg() { …
// }; bg server` runs the function, not job control), except the special
// builtins where the dialect finds those first; through a wrapper
// (command, builtin, exec, env, nohup…) the name is never a function.
func (w *walker) callsFunc(r knowledge.Resolved) bool {
	return !r.Wrapped && w.fns.funcs[r.Name] != nil && !(w.sh.d.SpecialBuiltinsFirst && specialBuiltins.Has(r.Name))
}

// specialBuiltins are POSIX's special builtins.
var specialBuiltins = knowledge.SetOf(`break : . continue eval exec exit export readonly return set shift times trap unset`)

// function is a declared shell function.
type function struct {
	body   *syntax.Stmt
	env    fdtable.Table // descriptors where it was declared
	src    *Source
	walked int // how many calls walked the body
	cost   funcCost
	// other is the definition of the same name that may still be in
	// force: this one was made in a branch that may not have run (see
	// walk_funcalts.go).
	other *function
	// args: whether the body uses positional parameters (see usesArgs),
	// 0 until worked out.
	args int8
	// kshStyle: declared `function name { … }`, without parentheses
	// (see dialect.kshFuncOptsLocal).
	kshStyle bool
}

// maxFuncWalks bounds how often one body is walked, so that functions
// calling functions cannot blow the walk up; later calls only apply what
// the body does to the caller's jobs (its wait and kill commands).
const maxFuncWalks = 3

// maxFuncReplays bounds those lighter passes over a whole walk. Each pass
// still follows the calls in the body, so a chain of functions that each
// call the next twice (`f0() { f1; f1; }; f1() { f2; f2; }; …`) makes
// 2^n passes; past the bound a call applies nothing, and the caller's
// jobs run on as if its waits and kills were not there, the side that
// reports more, never less. No script written by hand comes near it.
const maxFuncReplays = 4096

// callFunc walks a function's body where it is called: in the calling
// shell (its jobs are the caller's, its wait and kill reach the caller's
// jobs: `cleanup() { kill "$pid"; }; trap cleanup EXIT`) and with the
// call's descriptors (`start >/dev/null 2>&1` redirects what start runs).
func (w *walker) callFunc(name string, args []*syntax.Word, env fdtable.Table) {
	fn := w.fns.funcs[name]
	if fn == nil || w.fns.calling[name] {
		return
	}
	outer := w.enterArgs(fn, args)
	defer func() { w.fns.args = outer }()
	if w.fns.calling == nil {
		w.fns.calling = map[string]bool{}
	}
	w.fns.calling[name] = true
	defer delete(w.fns.calling, name)
	if fn.other != nil {
		w.callEither(fn, env)
		return
	}
	w.callBody(fn, env)
}

// callBody walks the body of the function fn for a call of it (see
// callFunc).
func (w *walker) callBody(fn *function, env fdtable.Table) {
	if w.replayCall(fn) {
		return
	}
	if fn.walked < maxFuncWalks {
		fn.walked++
		saved, slow, bounded := w.src, w.slow, w.bounded
		// zsh: an EXIT trap set in the body is the function's own, run
		// when it returns; the shell's stays as it was.
		endTraps := w.funcTraps()
		w.src = fn.src
		from, outerFrom := len(w.fns.locals), w.fns.localsFrom
		w.fns.localsFrom = from
		w.callOpts(fn.kshStyle, func() {
			if after := w.stmt(fn.body, env); after != env {
				w.fns.funcEnv = &after // an exec in the body redirected the shell
			}
		})
		w.restoreLocals(from) // (zsh runs the function's EXIT trap after)
		w.fns.localsFrom = outerFrom
		endTraps()
		w.src = saved
		fn.cost.measured, fn.cost.slow, fn.cost.bounded = true, w.slow-slow, w.bounded-bounded
		return
	}
	if w.fns.funcReplays++; w.fns.funcReplays > maxFuncReplays {
		return
	}
	knowledge.Inspect(fn.body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.BinaryCmd:
			return n.Op == syntax.AndStmt || n.Op == syntax.OrStmt
		case *syntax.Stmt:
			return !n.Background && !n.Coprocess
		case *syntax.CallExpr:
			r := w.p.resolveCall(n)
			switch r.Name {
			case "wait":
				w.wait(r.Args, nil)
			case "kill":
				w.kill(r.Args)
			default:
				w.callFunc(r.Name, r.Args, env)
			}
			return false
		}
		return true
	})
}

// walkUncalled walks, in declaration order, the bodies of functions no
// call reached (the EXIT traps have run by then), so that a library of
// functions is still checked. Each body runs in a shell of its own: a
// kill or wait in a function nobody calls reaches none of the script's
// jobs (`stop() { kill $pid; }; trap stop INT TERM; server & pid=$!`
// leaves the server when the script ends without a signal), and what the
// body starts is reported as the script's own jobs are.
func (w *walker) walkUncalled() {
	for _, name := range w.fns.funcOrder {
		for fn := w.fns.funcs[name]; fn != nil; fn = fn.other {
			w.walkUncalledBody(fn)
		}
	}
	for _, fn := range w.fns.dropped {
		if !w.bodyDefined(fn) {
			w.walkUncalledBody(fn)
		}
	}
}

// walkUncalledBody walks the body of a definition no call reached in a
// shell of its own (see walkUncalled).
func (w *walker) walkUncalledBody(fn *function) {
	if fn.walked > 0 {
		return
	}
	fn.walked = maxFuncWalks
	saved, src, apart := w.sh, w.src, w.apart
	w.sh = w.newShell(shNested, false)
	w.sh.leads = saved.leads
	w.src = fn.src
	// Nor does a kill by a pid file or by name, which would reach any
	// process: `stop() { kill $(cat app.pid); }` or `{ pkill -f server; }`
	// never runs, so the jobs started before stay as they are.
	w.apart = append(slices.Clip(w.apart), w.p.Jobs...)
	w.inBody("uncalled body", func() { w.stmt(fn.body, fn.env) })
	w.endShell()
	w.sh, w.src, w.apart = saved, src, apart
}

// callLeft is the descriptors the shell has after a function call whose
// body exec'd redirections (after; inner: the body's at its start, env:
// the shell's before the call): the call's own redirections are undone,
// so what they set is env's again, while what the exec changed besides
// stays (`f() { exec 2>&1; }; f >/dev/null` leaves stderr on /dev/null
// for good, in bash as a random program found).
func callLeft(env, inner, after fdtable.Table, rs []*syntax.Redirect) fdtable.Table {
	out := env
	for fd := range out {
		if after[fd] != inner[fd] && !redirects(rs, fd) {
			out[fd] = after[fd]
		}
	}
	return out
}

// redirects reports whether one of rs sets the descriptor fd.
func redirects(rs []*syntax.Redirect, fd int) bool {
	for _, r := range rs {
		if n := fdtable.RedirFD(r); n == fd || (fd == 2 && n == 1 && (r.Op == syntax.RdrAll || r.Op == syntax.AppAll)) {
			return true
		}
	}
	return false
}
