package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Variables a function declares local (`local pid`, typeset, declare)
// are its own: when it returns, the caller's variable of that name is
// back as it was, so `start() { local pid; server & pid=$!; }; start;
// kill $pid` stops nothing (checked under bash, zsh, dash and mksh: the
// server outlives the shell). What the pid tables held for the name is
// saved at the declaration and put back when the call ends.

// localVar is what the shell's pid tables held for a name before a
// function declared it local.
type localVar struct {
	sh                   *shell
	name                 string
	jobs                 []*Job
	had                  bool // pidVars had the name
	array, joined, empty bool
}

// declaresLocal returns the names a declaration makes local to the
// function being called: local, typeset and declare (not -g, which is
// the global one), and dash's local, which parses as a command.
func declaresLocal(c syntax.Command) []string {
	var names []string
	switch c := c.(type) {
	case *syntax.DeclClause:
		switch c.Variant.Value {
		case "local", "typeset", "declare":
		default:
			return nil // export, readonly, nameref
		}
		for _, a := range c.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				if o := knowledge.WordLit(a.Value); strings.HasPrefix(o, "-") && strings.Contains(o, "g") {
					return nil // declare -g: the global variable
				}
				continue
			}
			if a.Name != nil {
				names = append(names, a.Name.Value)
			}
		}
	case *syntax.CallExpr:
		if len(c.Args) < 2 || knowledge.WordLit(c.Args[0]) != "local" {
			return nil
		}
		for _, a := range c.Args[1:] {
			v := knowledge.WordLit(a)
			if i := strings.IndexByte(v, '='); i >= 0 {
				v = v[:i]
			} else if v == "" && len(a.Parts) > 0 {
				if l, ok := a.Parts[0].(*syntax.Lit); ok {
					v, _, _ = strings.Cut(l.Value, "=") // local pid=$!
				}
			}
			if isName(v) {
				names = append(names, v)
			}
		}
	}
	return names
}

// declareLocal saves what the current shell holds for the names a
// declaration inside a function call makes local, once per call.
func (w *walker) declareLocal(c syntax.Command) {
	if len(w.fns.calling) == 0 {
		return // at the top a declaration is global
	}
	for _, name := range declaresLocal(c) {
		if slices.ContainsFunc(w.fns.locals[w.fns.localsFrom:], func(l localVar) bool { return l.sh == w.sh && l.name == name }) {
			continue
		}
		w.pushLocal(name)
	}
}

// pushLocal saves what the current shell holds for name, for
// restoreLocals to put back.
func (w *walker) pushLocal(name string) {
	sh := w.sh
	js, had := sh.pidVars[name]
	w.fns.locals = append(w.fns.locals, localVar{sh: sh, name: name, jobs: slices.Clone(js), had: had,
		array: sh.arrays[name], joined: sh.joined[name], empty: sh.empty[name]})
}

// callAssigns saves the variables the assignments before a function call
// set (`PORT=3001 start`): they are the call's own in all four shells,
// bash's POSIX mode too, and what the body assigns them is gone when it
// returns (`P=1 start` with `start() { server & P=$!; }` leaves no pid
// in P: checked under bash, zsh, dash and mksh). It returns what to give
// restoreLocals after the call.
func (w *walker) callAssigns(ce *syntax.CallExpr) (from int) {
	from = len(w.fns.locals)
	for _, a := range ce.Assigns {
		if a.Name != nil {
			w.pushLocal(a.Name.Value)
		}
	}
	return from
}

// restoreLocals puts back, latest first, what the locals declared since
// from hid: a name the caller had no pid in is unset again (it holds
// nothing, as in a shell that never set it).
func (w *walker) restoreLocals(from int) {
	for i := len(w.fns.locals) - 1; i >= from; i-- {
		l := w.fns.locals[i]
		sh := l.sh
		if l.had {
			sh.pidVars[l.name] = l.jobs
		} else {
			delete(sh.pidVars, l.name)
		}
		if l.array {
			sh.setArray(l.name)
		} else {
			delete(sh.arrays, l.name)
		}
		if l.joined {
			sh.joined[l.name] = true
		} else {
			delete(sh.joined, l.name)
		}
		sh.setEmpty(l.name, l.empty || !l.had)
	}
	clear(w.fns.locals[from:])
	w.fns.locals = w.fns.locals[:from]
}

// anonFunc walks, through walk, the body of zsh's anonymous function `() {
// … }`, which runs where it stands as a function call: a variable it
// declares local is its own (`() { local p; server & p=$! }; kill $p`
// stops nothing, checked under zsh 5.9), and an EXIT trap it sets is run
// when it returns, as a named function's.
func (w *walker) anonFunc(walk func()) {
	const key = "() { }" // no function can have this name
	if w.fns.calling == nil {
		w.fns.calling = map[string]bool{}
	}
	had := w.fns.calling[key]
	w.fns.calling[key] = true
	endTraps := w.funcTraps() // (see zsh_functraps.go)
	from, outerFrom := len(w.fns.locals), w.fns.localsFrom
	w.fns.localsFrom = from
	walk()
	w.restoreLocals(from)
	w.fns.localsFrom = outerFrom
	endTraps()
	if !had {
		delete(w.fns.calling, key)
	}
}
