package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A trap action in double quotes is expanded when the trap is set:
// `trap "kill $pid" EXIT` kills the job pid named then, whatever pid
// holds when the trap runs (a later job, or nothing once the function
// that declared it local has returned). trapVar is what the shell's pid
// tables held then for one variable the action expands.
type trapVar struct {
	name  string
	jobs  []*Job
	had   bool // pidVars had the name
	empty bool
}

// trapVars records the pid variables a double-quoted trap action word
// expands, as they stand now. One that no text before the trap could
// have assigned (see scanAssigned) expands to nothing: `trap "kill
// $SERVER_PID" EXIT` set before `SERVER_PID=$!` holds a bare kill.
func (w *walker) trapVars(word *syntax.Word) []trapVar {
	var vs []trapVar
	var before *assignedNames
	knowledge.Inspect(word, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		if !ok || pe.Param == nil || !isName(pe.Param.Value) {
			return true
		}
		name := pe.Param.Value
		if slices.ContainsFunc(vs, func(v trapVar) bool { return v.name == name }) {
			return true
		}
		js, had := w.sh.pidVars[name]
		v := trapVar{name: name, jobs: slices.Clone(js), had: had, empty: w.sh.empty[name]}
		if !had && plainParam(pe) && !w.sh.arrays[name] && !shellSet.Has(name) {
			if pos := int(word.Pos().Offset()); before == nil && pos <= len(w.src.Text) {
				before = scanAssigned(w.src.Text[:pos], w.sh.d.Missing)
			}
			v.empty = v.empty || before != nil && !before.opaque && before.evals == 0 && !before.names[name]
		}
		vs = append(vs, v)
		return true
	})
	return vs
}

// bindTrapVars gives the variables of vs the values they had when the
// trap was set, while its action is walked in sh; the returned function
// puts back what they hold now.
func (sh *shell) bindTrapVars(vs []trapVar) (restore func()) {
	if len(vs) == 0 {
		return func() {}
	}
	now := make([]trapVar, len(vs))
	for i, v := range vs {
		js, had := sh.pidVars[v.name]
		now[i] = trapVar{name: v.name, jobs: js, had: had, empty: sh.empty[v.name]}
	}
	set := func(vs []trapVar) {
		for _, v := range vs {
			if v.had {
				if sh.pidVars == nil {
					sh.pidVars = map[string][]*Job{}
				}
				sh.pidVars[v.name] = v.jobs
			} else {
				delete(sh.pidVars, v.name)
			}
			sh.setEmpty(v.name, v.empty)
		}
	}
	set(vs)
	return func() { set(now) }
}
