package walk

import (
	"strconv"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Positional parameters: test and dev scripts hand pids and pid file names
// to helper functions (`stop() { kill "$1"; }; stop $API`, `start() {
// name=$1; shift; "$@" >"$name.log" 2>&1 & echo $! >"$name.pid"; }`,
// `stop_all() { for p in "$@"; do kill $p; done; }`). A call of such a
// function binds $1…, "$@" and $* to what its argument words name where
// it is called: the jobs (as argJobs resolves them) and the value (as
// wordValue does). `stop $A` then stops A alone, where an unknown $1 was
// taken as any job. Outside a function call (the command line's own
// arguments, which the walk does not see) they stay unknown, except in a
// nested shell's -c string, whose words after its $0 are its own (see
// walk_shellargs.go).

// argFrame is the positional parameters of the function call being
// walked.
type argFrame struct {
	args []posArg
	// open: the positions from len(args) on are not known (an argument
	// word that may split into several, or none), nor "$@" beyond args.
	open bool
	// drift: a shift that may have run (in a branch, a loop's rounds)
	// moved them down by a number the walk does not know: $N is any of
	// args[N-1:] (see posArg).
	drift bool
	// vals are the variables the call assigned, while it runs, with the
	// value the walk can name ("" for one it cannot): `name=$1` then
	// names `"$name.pid"` (see frameValue).
	vals  map[string]string
	outer *argFrame
}

// posArg is one positional parameter: what its word named at the call.
type posArg struct {
	jobs         []*Job
	known, empty bool
	val          string // its value, "" when the walk cannot name it
	// joined: the word puts more than a pid into one argument (`"$A
	// $B"`, `"pid $A"`): quoted, `kill "$1"` gets one bad pid.
	joined bool
}

// usesArgs reports whether a function's body expands positional
// parameters or shifts them (worked out once per definition): only then
// does a call of it resolve its arguments.
func (fn *function) usesArgs() bool {
	if fn.args == 0 {
		fn.args = -1
		if knowledge.Holds(fn.body, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				return n.Param != nil && posIndex(n.Param.Value) != -1
			case *syntax.WordIter:
				return !n.InPos.IsValid() // for p; do …: over "$@"
			}
			return knowledge.IsCallOf(n, "shift")
		}) {
			fn.args = 1
		}
	}
	return fn.args > 0
}

// posIndex is the index of a positional parameter by name ($1 is 0),
// len-independent markers for "$@" and "$*" (-2), or -1 for any other
// name.
func posIndex(name string) int {
	switch name {
	case "@", "*":
		return -2
	case "", "0":
		return -1
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 {
		return -1
	}
	return n - 1
}

// enterArgs binds the positional parameters of a call of fn with the
// argument words args and returns the frame to restore when the call
// returns. A function whose body does not use them gets none: they stay
// unknown, as they were.
func (w *walker) enterArgs(fn *function, args []*syntax.Word) (outer *argFrame) {
	outer = w.fns.args
	if !fn.usesArgs() {
		w.fns.args = nil
		if outer != nil {
			// its own are not known, but the variables the calls
			// around it bound still are
			w.fns.args = &argFrame{open: true, outer: outer}
		}
		return outer
	}
	w.fns.args = w.bindArgs(args, &argFrame{outer: outer})
	return outer
}

// bindArgs fills f with the positional parameters the words args give,
// resolved in the call being walked.
func (w *walker) bindArgs(args []*syntax.Word, f *argFrame) *argFrame {
	cur := w.fns.args
	for _, a := range args {
		if f.open {
			break
		}
		if pe, quoted := loneParam(a); pe != nil && (pe.Param.Value == "@" || pe.Param.Value == "*" && !quoted) {
			// "$@" passes the caller's own on: `run() { start "$@"; }`
			if cur == nil {
				f.open = true
				break
			}
			f.args = append(f.args, cur.args...)
			f.open, f.drift = cur.open, f.drift || cur.drift
			continue
		}
		if v := knowledge.Value(a); literalWord(a) {
			// text: no pid of a job (a job spec or an option stays unknown)
			known := v == "" || v[0] != '%' && v[0] != '-'
			f.args = append(f.args, posArg{known: known, empty: v == "", val: v})
			continue
		}
		js, known, empty := w.argJobs(a)
		p := posArg{jobs: js, known: known, empty: empty, val: w.wordValue(a), joined: w.joins(a)}
		if !hasQuotes(a) && !w.oneField(p) {
			if empty && known {
				continue // unquoted and empty: no argument at all
			}
			f.open = true // may split into several, or be none
			break
		}
		f.args = append(f.args, p)
	}
	return f
}

// joins reports whether a word that expands a pid puts more into the
// same argument: blanks, another expansion, or a variable of pids built
// as one string (see posArg.joined).
func (w *walker) joins(a *syntax.Word) bool {
	if pe, _ := loneParam(a); pe != nil {
		return w.sh.joined[pe.Param.Value]
	}
	return spaced(a) || expansions(a) > 1
}

// expansions counts the parameter expansions of a word.
func expansions(a *syntax.Word) int {
	n := 0
	knowledge.Inspect(a, func(n2 syntax.Node) bool {
		if _, ok := n2.(*syntax.ParamExp); ok {
			n++
			return false
		}
		return true
	})
	return n
}

// oneField reports whether an unquoted word that expands something gives
// one argument: a value the walk names without blanks, or one pid (zsh
// splits no expansion: anything that is not empty is one).
func (w *walker) oneField(p posArg) bool {
	if p.val != "" {
		return !containsBlank(p.val) || !w.splitsWords()
	}
	return p.known && !p.empty && (len(p.jobs) == 1 || !w.splitsWords())
}

func containsBlank(s string) bool {
	for _, c := range s {
		if c == ' ' || c == '\t' || c == '\n' {
			return true
		}
	}
	return false
}

// posJobs resolves an expansion of a positional parameter inside a call
// (see argJobs); ok is false where the walk does not know them.
func (w *walker) posJobs(pe *syntax.ParamExp) (p posArg, ok bool) {
	if w.fns.args == nil || !plainParam(pe) {
		return posArg{}, false
	}
	return w.posArg(posIndex(pe.Param.Value))
}

// posArg is the positional parameter of index i (see posIndex) of the
// call being walked; ok is false where the walk does not know it. After
// shifts the walk cannot count, $N stands for any of the parameters from
// N on.
func (w *walker) posArg(i int) (p posArg, ok bool) {
	f := w.fns.args
	switch {
	case f == nil || i == -1:
		return posArg{}, false
	case i >= 0 && i < len(f.args) && !f.drift:
		return f.args[i], true
	case f.open:
		return posArg{}, false
	case i >= len(f.args):
		return posArg{known: true, empty: true}, true // beyond the last: unset
	}
	from := 0 // "$@"
	if i >= 0 {
		from = i
	}
	all := posArg{known: true, empty: true}
	for _, a := range f.args[from:] {
		all.jobs = append(all.jobs, a.jobs...)
		all.known = all.known && a.known
		all.empty = all.empty && a.empty
		all.joined = all.joined || a.joined
	}
	return all, true
}

// frameValue is the value of $N or $NAME where the function call being
// walked binds it (see argFrame.vals), "" when the walk cannot name it;
// bound is false where no call bound it.
func (w *walker) frameValue(pe *syntax.ParamExp) (v string, bound bool) {
	if w.fns.args == nil || !plainParam(pe) {
		return "", false
	}
	name := pe.Param.Value
	if name == "#" {
		n, _ := w.paramCount()
		return n, true
	}
	if i := posIndex(name); i >= 0 {
		if i < len(w.fns.args.args) && !w.fns.args.drift {
			return w.fns.args.args[i].val, true
		}
		return "", true
	} else if i == -2 {
		return "", true
	}
	for f := w.fns.args; f != nil; f = f.outer {
		if v, ok := f.vals[name]; ok {
			return v, true
		}
	}
	return "", false
}

// plainValue is the value word of a scalar assignment (`name=$1`), nil
// for an array, an element or an append.
func plainValue(a *syntax.Assign) *syntax.Word {
	if a.Append || a.Index != nil || a.Array != nil {
		return nil
	}
	return a.Value
}

// frameAssign notes in the call being walked what an assignment of name
// gives it: the value the walk can name when it runs for sure (`name=$1`,
// `local pf="$1.pid"`), else "" (not known). The calls it runs inside
// no longer know theirs.
func (w *walker) frameAssign(name string, value *syntax.Word) {
	f := w.fns.args
	if f == nil {
		return
	}
	v := ""
	if value != nil && w.sureCond() == 0 && w.branching == 0 {
		v = w.wordValue(value)
	}
	if f.vals == nil {
		f.vals = map[string]string{}
	}
	f.vals[name] = v
	for o := f.outer; o != nil; o = o.outer {
		if _, ok := o.vals[name]; ok {
			o.vals[name] = ""
		}
	}
}

// loopArgs binds the variable of `for p in "$@"` (or `for p; do`) to the
// jobs the call's arguments name, and reports how many rounds it runs
// when that is known: one per argument.
func (w *walker) loopArgs(l *syntax.WordIter) (rounds int, known bool) {
	if w.fns.args == nil || l.Name == nil {
		return 0, false
	}
	if l.InPos.IsValid() {
		if len(l.Items) != 1 {
			return 0, false
		}
		if pe, _ := loneParam(l.Items[0]); pe == nil || posIndex(pe.Param.Value) != -2 {
			return 0, false
		}
	}
	all, ok := w.posArg(-2)
	if !ok {
		return 0, false
	}
	name := l.Name.Value
	w.frameAssign(name, nil)
	delete(w.sh.joined, name)
	w.sh.setEmpty(name, all.known && all.empty)
	if all.known && !all.empty {
		if w.sh.pidVars == nil {
			w.sh.pidVars = map[string][]*Job{}
		}
		w.sh.pidVars[name] = all.jobs
	}
	return len(w.fns.args.args), !w.fns.args.drift
}
