package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// zsh's exit hooks beyond the zshexit function (zshmisc(1), Special
// Functions: "for each function name … an array … with the suffix
// _functions"): zexit (Src/builtin.c) calls callhookfunc("zshexit"),
// which runs the function zshexit and then each function the array
// zshexit_functions names (Src/utils.c: getaparam, so a scalar of the
// name runs nothing). add-zsh-hook, once autoloaded, appends to that
// array (`add-zsh-hook zshexit cleanup`) and `-d` takes a name out; not
// autoloaded it is a command not found. As for zshexit, only the main
// shell runs them, interactive or not, and not when it exec'd its last
// command in place: `cleanup() { kill $P; }; zshexit_functions+=(cleanup);
// server & P=$!; ./e2e; echo done` stops the server (zsh 5.9).

// hookArray is the array of the functions an exit hook runs.
func hookArray(d *dialect.Dialect) string { return d.ExitHook + "_functions" }

// noteExitHooks follows an assignment to the hook array of the main shell.
func (w *walker) noteExitHooks(a *syntax.Assign) {
	d := w.sh.d
	if d.ExitHook == "" || a.Name == nil || a.Name.Value != hookArray(d) || !w.hooksSure() {
		return
	}
	if !a.Append {
		w.traps.exitHooks = w.traps.exitHooks[:0]
	}
	if a.Array == nil {
		// a scalar (or `+=name` on one) runs nothing; `+=name` on the
		// array appends an element
		if a.Append && w.traps.hooksArray && a.Value != nil {
			w.traps.exitHooks = append(w.traps.exitHooks, knowledge.WordLit(a.Value))
		} else {
			w.traps.hooksArray = false
		}
		return
	}
	w.traps.hooksArray = true
	for _, e := range a.Array.Elems {
		if e.Index == nil && e.Value != nil {
			w.traps.exitHooks = append(w.traps.exitHooks, knowledge.WordLit(e.Value))
		}
	}
}

// addZshHook follows `add-zsh-hook [-d] zshexit NAME`, and `autoload`,
// which must have made add-zsh-hook a function first. It reports whether
// the command was one of them.
func (w *walker) addZshHook(name string, args []*syntax.Word) bool {
	d := w.sh.d
	switch {
	case d.ExitHook == "":
		return false
	case name == "autoload":
		if slices.ContainsFunc(args, func(a *syntax.Word) bool { return knowledge.WordLit(a) == "add-zsh-hook" }) && w.hooksSure() {
			w.traps.hookLoaded = true
		}
		return true
	case name != "add-zsh-hook":
		return false
	}
	if !w.traps.hookLoaded || !w.hooksSure() {
		return true
	}
	del := len(args) > 0 && knowledge.WordLit(args[0]) == "-d"
	if del {
		args = args[1:]
	}
	if len(args) != 2 || knowledge.WordLit(args[0]) != d.ExitHook {
		return true
	}
	fn := knowledge.WordLit(args[1])
	w.traps.exitHooks = slices.DeleteFunc(w.traps.exitHooks, func(h string) bool { return h == fn })
	if !del {
		w.traps.exitHooks = append(w.traps.exitHooks, fn)
		w.traps.hooksArray = true
	}
	return true
}

// hooksSure reports whether a change to the exit hooks being walked is
// the main shell's, made for sure.
func (w *walker) hooksSure() bool {
	return w.sh.kind == shTop && w.job == nil && w.surelyRuns()
}

// runExitHooks calls the functions the hook array names, as the main
// shell exits.
func (w *walker) runExitHooks() {
	for _, name := range w.traps.exitHooks {
		if w.fns.funcs[name] != nil {
			w.callFunc(name, nil, fdtable.Table{})
		}
	}
}
