package analyze

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// A double-quoted trap string is expanded when the trap is set, not when
// it runs: `trap "kill $pid" EXIT` set before `pid=$!` holds `kill` alone,
// and the server outlives the shell; set again in a loop's second round it
// names the first round's server, not the second's (bash, zsh, dash and
// mksh). The walk parses the string's text again when the trap runs, so
// the pid variables it read are recorded here as they were then.

// trapVar is a variable a double-quoted trap string expanded, with the
// jobs it named then (none: it was unset).
type trapVar struct {
	name string
	jobs []*job
}

// trapVars returns the variables the double-quoted trap string a expands
// plainly (`$pid`, `${pid}`) whose value the walk knows at the trap: the
// jobs a pid variable names, or nothing for one that no text before the
// trap could have assigned (see scanAssigned): unset there, or set by the
// caller's environment before any job started.
func (w *walker) trapVars(a *syntax.Word) []trapVar {
	pos := int(a.Pos().Offset())
	if pos > len(w.src.text) {
		return nil
	}
	var vars []trapVar
	var before *assignedNames
	syntax.Walk(a, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		if !ok {
			return true
		}
		if pe.Param == nil || !plainParam(pe) || !isName(pe.Param.Value) || w.sh.arrays[pe.Param.Value] {
			return false
		}
		name := pe.Param.Value
		if js, ok := w.sh.pidVars[name]; ok {
			vars = append(vars, trapVar{name, slices.Clone(js)})
			return false
		}
		if before == nil {
			before = scanAssigned(w.src.text[:pos])
		}
		if !before.opaque && !before.names[name] && !shellSet.has(name) {
			vars = append(vars, trapVar{name: name})
		}
		return false
	})
	return vars
}

// withTrapVars runs f with the variables as a double-quoted trap string
// found them when it was set.
func (w *walker) withTrapVars(vars []trapVar, f func()) {
	if len(vars) == 0 {
		f()
		return
	}
	sh := w.sh
	type saved struct {
		js           []*job
		had, isEmpty bool
	}
	old := make([]saved, len(vars))
	for i, v := range vars {
		js, ok := sh.pidVars[v.name]
		old[i] = saved{js, ok, sh.empty[v.name]}
		if v.jobs == nil {
			delete(sh.pidVars, v.name)
			sh.setEmpty(v.name, true)
			continue
		}
		if sh.pidVars == nil {
			sh.pidVars = map[string][]*job{}
		}
		sh.pidVars[v.name] = v.jobs
		sh.setEmpty(v.name, false)
	}
	f()
	for i, v := range vars {
		if old[i].had {
			if sh.pidVars == nil {
				sh.pidVars = map[string][]*job{}
			}
			sh.pidVars[v.name] = old[i].js
		} else {
			delete(sh.pidVars, v.name)
		}
		sh.setEmpty(v.name, old[i].isEmpty)
	}
}
