package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Assignments: the variables that save a job's pid (`pid=$!`, `pids+=($!)`,
// a loop over pids) and the substitutions their values run.

// assign notes variables that save a job's pid (pid=$!, pids+=($!)) and
// walks substitutions in the value.
func (w *walker) assign(a *syntax.Assign, env fdtable.Table) {
	if a.Name != nil {
		w.p.sawAssign(a.Name.Value)
	}
	saved := w.printed
	w.printed = nil
	if a.Value != nil {
		w.words([]*syntax.Word{a.Value}, env)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				w.words([]*syntax.Word{e.Value}, env)
			}
		}
	}
	w.bindAssign(a)
	w.statusAssign(a)
	w.noteExitHooks(a)
	w.printed = saved
	if a.Name != nil && w.fns.args != nil {
		w.frameAssign(a.Name.Value, plainValue(a)) // name=$1 in a call
	}
}

// bindAssign binds the variable an assignment sets, once its words are
// walked, to the jobs its value names.
func (w *walker) bindAssign(a *syntax.Assign) {
	if a.Value != nil && a.Name != nil {
		// pid=$(server >log 2>&1 & echo $!): the variable names the
		// job, which `kill $pid` reaches (wait cannot: it is not this
		// shell's child).
		for _, j := range w.printed {
			w.pidVar(a.Name.Value, j)
		}
		w.substVar(a)
	}
	if a.Name == nil {
		return
	}
	if w.sh.last == nil {
		if a.Value != nil && isLastPid(a.Value) && a.Index == nil && a.Array == nil && !a.Append && !w.sh.d.BangZero {
			// $! before any job is empty (zsh's is 0): `XVFB_PID=$!;
			// Xvfb :99 & …; kill $XVFB_PID` (conda-forge's
			// diffpy.fourigui run_test.sh) kills nothing, as `kill`
			// without a pid does.
			delete(w.sh.pidVars, a.Name.Value)
			w.sh.setEmpty(a.Name.Value, true)
		}
		return
	}
	if a.Value != nil && knowledge.PlainWord(a.Value) && a.Array == nil {
		return // no $! in a literal
	}
	if w.indexBindsNoPid(a) {
		return // zsh: pids[1]=$! is the text "$!"; dash: no arrays
	}
	if refersToLastPid(a) {
		if w.replacesPid(a) {
			delete(w.sh.pidVars, a.Name.Value)
			delete(w.sh.joined, a.Name.Value)
			delete(w.sh.arrays, a.Name.Value)
		}
		held := len(w.sh.pidVars[a.Name.Value])
		for _, j := range w.sh.lasts() {
			w.pidVar(a.Name.Value, j)
		}
		if a.Index != nil {
			w.indexedPid(a, held) // pids[0]=$!
		}
		if a.Array != nil {
			w.sh.setArray(a.Name.Value)
		}
		w.pidsBeside(a, held)
		if a.Array == nil && (!a.Append && refersTo(a.Value, a.Name.Value) || spaced(a.Value)) {
			if w.sh.joined == nil {
				w.sh.joined = map[string]bool{}
			}
			w.sh.joined[a.Name.Value] = true
		}
	}
}

// pidsBeside binds the variable a value with $! in it sets to the jobs
// of the other pid variables it names beside $!: `PIDS="$API $!"` holds
// both pids, which `kill $PIDS` stops where the word splits; joined with
// text (`"$API,$!"`) it holds no pid kill takes. The variable itself, in
// an appending `PIDS="$PIDS $!"`, already holds its own. An array,
// `pids=($API $!)`, is bound element by element, so that `${pids[0]}` is
// $API, where each element is one pid (held: those it had before); with
// any other element (a word, a variable of several jobs) it stays bound
// to $! alone, which makes a kill of it end less than it may.
func (w *walker) pidsBeside(a *syntax.Assign, held int) {
	name := a.Name.Value
	if a.Array == nil {
		if in := w.pidsIn(a.Value); in.text && in.pids > 0 {
			w.sh.pidVars[name] = nil
			return
		}
		for _, j := range w.besidePids(a.Value, name) {
			if !slices.Contains(w.sh.pidVars[name], j) {
				w.pidVar(name, j)
			}
		}
		return
	}
	var ordered []*Job
	beside := false
	for _, e := range a.Array.Elems {
		if e.Value == nil || e.Index != nil {
			return
		}
		js := w.sh.lasts()
		if !isLastPid(e.Value) {
			if pe, _ := loneParam(e.Value); pe == nil {
				return
			}
			js, beside = w.besidePids(e.Value, name), true
		}
		if len(js) != 1 {
			return
		}
		ordered = append(ordered, js...)
	}
	if beside {
		w.sh.pidVars[name] = append(w.sh.pidVars[name][:held:held], ordered...)
	}
}

// besidePids are the jobs of the pid variables a word expands, other
// than $! and the variable name, outside substitutions.
func (w *walker) besidePids(word *syntax.Word, name string) []*Job {
	var js []*Job
	knowledge.Inspect(word, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			return false // what these print is not the variable's pid
		case *syntax.ParamExp:
			if n.Param != nil && n.Param.Value != name && !n.Length && !n.Excl && n.Exp == nil && n.Repl == nil && n.Slice == nil && n.Index == nil {
				js = append(js, w.sh.pidVars[n.Param.Value]...)
			}
			return false
		}
		return true
	})
	return js
}

func refersToLastPid(n syntax.Node) bool { return expandsParam(n, "!") }

// catsDoc reports whether the command is `cat` printing a here-document or
// here-string, which ends as soon as it has written it.
func catsDoc(r knowledge.Resolved, s *syntax.Stmt) bool {
	return r.Name == "cat" && !r.Wrapped && len(r.Args) == 0 && stdinDoc(s.Redirs) != nil
}

// refersTo reports whether a word expands the variable name.
func refersTo(word *syntax.Word, name string) bool {
	return word != nil && expandsParam(word, name)
}

// expandsParam reports whether the tree n expands the parameter name.
func expandsParam(n syntax.Node, name string) bool {
	return knowledge.Holds(n, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		return ok && pe.Param != nil && pe.Param.Value == name
	})
}

// substVar binds a variable assigned a substitution the walk resolves
// (see substJobs): `J=$(jobs -p)` holds nothing in zsh and dash,
// `pid=$(cat run.pid)` the jobs whose pids went into run.pid.
func (w *walker) substVar(a *syntax.Assign) {
	name := a.Name.Value
	if a.Append || a.Array != nil || a.Index != nil || knowledge.WordLit(a.Value) != "" || refersToLastPid(a.Value) {
		w.sh.setEmpty(name, false)
		return
	}
	js, known, empty := w.argJobs(a.Value)
	w.sh.setEmpty(name, known && empty)
	if known && empty {
		delete(w.sh.pidVars, name)
	} else if known {
		if w.sh.pidVars == nil {
			w.sh.pidVars = map[string][]*Job{}
		}
		w.sh.pidVars[name] = js
		delete(w.sh.joined, name)
		switch in := w.pidsIn(a.Value); {
		case in.pids > 0 && in.text:
			w.sh.pidVars[name] = nil // PIDS="$a,$b": no pid kill takes
		case in.pids > 1:
			if w.sh.joined == nil {
				w.sh.joined = map[string]bool{}
			}
			w.sh.joined[name] = true // PIDS="$API $WEB": split, two pids
		}
	}
}

// loopPids binds the variable of `for pid in $pids` to the jobs $pids
// holds, so that `kill $pid` in the body names them. Where the shell
// does not split the word (zsh, or "$pids" quoted), the loop runs once
// with the whole string, and a joined one is then one bad pid.
func (w *walker) loopPids(l *syntax.WordIter) {
	if l.Name == nil {
		return
	}
	w.sh.setEmpty(l.Name.Value, false)
	if w.loopSubsts(l) || len(l.Items) != 1 {
		return
	}
	pe, quoted := loneParam(l.Items[0])
	if pe == nil {
		return
	}
	js, ok := w.sh.pidVars[pe.Param.Value]
	if !ok {
		return
	}
	if el, ok := w.pidElement(pe, js); ok {
		js = el // an array's bare $pids is its first element (bash, mksh)
	}
	name := l.Name.Value
	w.sh.pidVars[name] = append([]*Job(nil), js...)
	if w.sh.joined[pe.Param.Value] && !w.splits(pe, quoted) {
		w.sh.joined[name] = true
	} else {
		delete(w.sh.joined, name)
	}
}

// loopSubsts binds the variable of a loop over substitutions the walk
// resolves (see substJobs): over `$(jobs -p)` in zsh and dash the loop
// runs no round, and its variable holds nothing; so over a variable bound
// to one, `pids=$(jobs -p); for p in $pids`.
func (w *walker) loopSubsts(l *syntax.WordIter) bool {
	var named []*Job
	empty := true
	for _, it := range l.Items {
		if pe, _ := loneParam(it); pe != nil && plainParam(pe) && w.sh.empty[pe.Param.Value] {
			continue // holds nothing (see shell.empty)
		}
		if knowledge.WordLit(it) != "" || refersToLastPid(it) || len(it.Parts) != 1 {
			return false
		}
		if _, ok := it.Parts[0].(*syntax.CmdSubst); !ok {
			return false
		}
		js, known, e := w.argJobs(it)
		if !known {
			return false
		}
		named, empty = append(named, js...), empty && e
	}
	if len(l.Items) == 0 {
		return false
	}
	name := l.Name.Value
	w.sh.setEmpty(name, empty)
	delete(w.sh.joined, name)
	if empty {
		delete(w.sh.pidVars, name)
		return true
	}
	if w.sh.pidVars == nil {
		w.sh.pidVars = map[string][]*Job{}
	}
	w.sh.pidVars[name] = named
	return true
}

// loneParam is the plain parameter expansion a word is made of alone
// ($x, ${x} or "$x"), if it is one.
func loneParam(w *syntax.Word) (pe *syntax.ParamExp, quoted bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return nil, false
		}
		part, quoted = dq.Parts[0], true
	}
	pe, _ = part.(*syntax.ParamExp)
	if pe == nil || pe.Param == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil || pe.Length || pe.Excl || pe.Width {
		return nil, false
	}
	return pe, quoted
}

// spaced reports whether a word has blanks in its literal text: its value
// is more than one pid, once joined (`pids=" $!"`).
func spaced(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, " \t\n") {
				return true
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok && strings.ContainsAny(l.Value, " \t\n") {
					return true
				}
			}
		}
	}
	return false
}

// unset forgets the pids the named variables held: `unset P; kill $P`
// kills nothing. Only where it surely runs (as a new pid=$! replaces the
// old one: see replacesPid); `unset -f` names functions (see unsetFuncs).
func (w *walker) unset(args []*syntax.Word) {
	if !w.unsetFuncs(args, false) || w.sureCond() != 0 || w.branching != 0 {
		return
	}
	for _, a := range args {
		name := knowledge.WordLit(a)
		if !isName(name) {
			continue
		}
		delete(w.sh.pidVars, name)
		delete(w.sh.joined, name)
		delete(w.sh.arrays, name)
		w.sh.setEmpty(name, true)
	}
}
