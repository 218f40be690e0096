package walk

import (
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// A function defined in a branch that may not run leaves the definition
// before it in force when the branch does not run: after `if command -v
// node; then serve() { node app & }; else serve() { :; }; fi` a call of
// serve runs one body or the other. The call walks each as a branch of
// an if: what either starts may be running, $! may be either's job.

// stillDefined returns the definition a new one of the same name (body)
// may leave in force: prev, when the new one is made in a branch or loop
// round that may not run (see walker.branching), and is not prev itself
// made again (a loop's second round).
func (w *walker) stillDefined(prev *function, body *syntax.Stmt) *function {
	if prev == nil || w.branching == 0 {
		return nil
	}
	for f := prev; f != nil; f = f.other {
		if f.body == body {
			return prev.other // the same definition, walked again
		}
	}
	return prev
}

// callEither walks a call of fn and of each definition it may stand in
// for (fn.other…) as alternatives.
func (w *walker) callEither(fn *function, env fdtable.Table) {
	b := w.branches()
	for f := fn; f != nil; f = f.other {
		b.start()
		w.branching++
		w.callBody(f, env)
		w.branching--
		b.end()
	}
	b.done(false)
}
