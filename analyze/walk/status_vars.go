package walk

import "mvdan.cc/sh/v3/syntax"

// A variable that saves the status a command left (`status=$?`) is as
// known as that status. Docker's multi-service wrapper and the scripts
// copied from it start each service in the background and check
// `status=$?; if [ $status -ne 0 ]; then exit $status; fi`: the status of
// `server &` is always 0 (all four shells), so that exit is never taken
// and a kill after it is sure (see prevStatus).

// statusAssign notes what an assignment does to the variables that hold
// a status: `name=$?` (or "$?"), run for sure, binds name to the command
// before it; any other assignment of name unbinds it.
func (w *walker) statusAssign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	delete(w.sh.statusVars, name)
	if a.Value == nil || a.Append || a.Index != nil || a.Array != nil || w.prev == nil || w.sureCond() != 0 || w.branching != 0 {
		return
	}
	if pe, _ := loneParam(a.Value); pe == nil || pe.Param.Value != "?" {
		return
	}
	if w.sh.statusVars == nil {
		w.sh.statusVars = map[string]*syntax.Stmt{}
	}
	w.sh.statusVars[name] = w.prev
}
