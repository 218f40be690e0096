package walk

import (
	"maps"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A function is defined in the shell process that ran its definition: one
// a subshell defines (a `( )`, a `$(…)`, a pipeline element, a job's body)
// ends with it, so after `( stop() { kill $P; } )` the script's `stop` is
// not found and the server outlives it (checked under bash, zsh, dash and
// mksh). `unset -f NAME` removes a definition, zsh's `unfunction NAME` too,
// and bash's plain `unset NAME` when no variable has the name: after
// `kill() { :; }; …; unset -f kill` the builtin kill is back.

// defineFunc makes fn the current shell's function name.
func (w *walker) defineFunc(name string, fn *function) {
	w.ownFuncs()
	if _, had := w.fns.funcs[name]; !had {
		w.fns.funcOrder = append(w.fns.funcOrder, name)
	}
	w.fns.funcs[name] = fn
}

// undefineFunc removes the current shell's function name, for sure: what
// the body would have done is linted at the end as an uncalled body's.
func (w *walker) undefineFunc(name string) {
	fn := w.fns.funcs[name]
	if fn == nil {
		return
	}
	w.ownFuncs()
	w.fns.dropped = append(w.fns.dropped, fn)
	delete(w.fns.funcs, name)
}

// ownFuncs gives a subshell a table of functions of its own before it
// changes one, and keeps its parent's to put back when it ends (see
// leaveFuncs).
func (w *walker) ownFuncs() {
	if sh := w.sh; sh.kind == shSubshell && !sh.ownFuncs {
		sh.outerFuncs, sh.ownFuncs = w.fns.funcs, true
		w.fns.funcs = maps.Clone(w.fns.funcs)
	}
	if w.fns.funcs == nil {
		w.fns.funcs = map[string]*function{}
	}
}

// leaveFuncs puts back the parent's functions as the subshell sh ends;
// those it defined are left to walkUncalled.
func (w *walker) leaveFuncs(sh *shell) {
	if !sh.ownFuncs {
		return
	}
	// (in the order of definition, not the map's: walkUncalled walks the
	// dropped bodies in this order, and the first walked changes what the
	// later ones find; in map order the findings changed from run to run)
	seen := map[string]bool{}
	for _, name := range w.fns.funcOrder {
		if fn := w.fns.funcs[name]; fn != nil && !seen[name] && sh.outerFuncs[name] != fn {
			w.fns.dropped = append(w.fns.dropped, fn)
		}
		seen[name] = true
	}
	w.fns.funcs = sh.outerFuncs
}

// unsetFuncs applies what `unset ARGS` (zsh's `unfunction ARGS`: onlyFuncs)
// does to the functions: -f names functions only, -v variables only, and
// without either bash unsets the function of a name no variable has
// (dialect.unsetFallsToFunc). It reports whether the arguments name
// variables, for unset to clear.
func (w *walker) unsetFuncs(args []*syntax.Word, onlyFuncs bool) (vars bool) {
	funcs, vars, either := onlyFuncs, !onlyFuncs, !onlyFuncs
	for _, a := range args {
		name := knowledge.WordLit(a)
		if strings.HasPrefix(name, "-") && !onlyFuncs {
			funcs, vars, either = strings.Contains(name, "f"), !strings.Contains(name, "f"), false
			continue
		}
		fallsTo := either && w.sh.d.UnsetFallsToFunc && w.noVariable(name)
		if isName(name) && (funcs || fallsTo) && w.surelyRuns() {
			w.undefineFunc(name)
			w.untrapFunc(name) // zsh: unfunction TRAPTERM
		}
	}
	return vars
}

// bodyDefined reports whether a function still defined has fn's body (a
// subshell that ran the definition again): walkUncalled walks it there.
func (w *walker) bodyDefined(fn *function) bool {
	for _, f := range w.fns.funcs {
		for ; f != nil; f = f.other {
			if f != fn && f.body == fn.body {
				return true
			}
		}
	}
	return false
}

// noVariable reports whether no variable has the name: the walk has passed
// no assignment of it, nor is it one the shell or a caller sets. (A `read
// NAME` or `for NAME in` of a function's name is not looked for.)
func (w *walker) noVariable(name string) bool {
	return !w.p.constSeen[name] && !maybeInEnv(name) && !shellSet.Has(name)
}
