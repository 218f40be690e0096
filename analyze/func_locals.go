package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable a function declares `local` (typeset, declare) is its own:
// what the body assigns to it is gone when the call returns, and the
// caller's variable of that name is as it was. `f() { local pid; server &
// pid=$!; }; f; kill $pid` kills nothing (bash, zsh, dash and mksh).

// localNames are the variables the function's body declares local, found
// on its first call.
func (fn *function) localNames() []string {
	if fn.localsDone {
		return fn.locals
	}
	fn.localsDone = true
	syntax.Walk(fn.body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			return false // another function's own
		case *syntax.CallExpr:
			// dash: `local` is a builtin, parsed as a call.
			if len(n.Args) > 1 && n.Args[0].Lit() == "local" {
				for _, a := range n.Args[1:] {
					name, _, _ := strings.Cut(a.Lit(), "=")
					if isName(name) {
						fn.locals = append(fn.locals, name)
					}
				}
			}
		case *syntax.DeclClause:
			switch n.Variant.Value {
			case "local", "typeset", "declare":
			default:
				return true
			}
			for _, a := range n.Args {
				if a.Name == nil {
					if v := a.Value; v != nil && a.Naked && v.Lit() == "-g" {
						return true // declare -g: the global one
					}
					continue
				}
				fn.locals = append(fn.locals, a.Name.Value)
			}
		}
		return true
	})
	return fn.locals
}

// savedVar is a variable of the calling shell as it was before a call.
type savedVar struct {
	name                        string
	jobs                        []*job
	hadPids, array, joined, emp bool
}

// saveVars records the variables names of the current shell.
func (w *walker) saveVars(names []string) []savedVar {
	sh := w.sh
	out := make([]savedVar, len(names))
	for i, name := range names {
		js, ok := sh.pidVars[name]
		out[i] = savedVar{name, js, ok, sh.arrays[name], sh.joined[name], sh.empty[name]}
	}
	return out
}

// restoreVars puts the variables back as saveVars found them. One that
// held no pid, and that no text before the call outside the function's
// body could have assigned, holds nothing: unset, or set by the caller's
// environment before any job started.
func (w *walker) restoreVars(vs []savedVar, fn *function) {
	sh := w.sh
	var before *assignedNames
	for i, v := range vs {
		if !v.hadPids && !v.emp && fn.src == w.src && w.consumer != nil {
			if before == nil {
				at, text := int(w.consumer.Pos().Offset()), w.src.text
				from, to := int(fn.body.Pos().Offset()), int(fn.body.End().Offset())
				if at > len(text) || from > to || to > at {
					break
				}
				outside := make([]byte, 0, at-(to-from))
				outside = append(append(outside, text[:from]...), text[to:at]...)
				before = scanAssigned(outside)
			}
			if !before.opaque && !before.names[v.name] && !shellSet.has(v.name) {
				vs[i].emp = true
			}
		}
	}
	for _, v := range vs {
		if v.hadPids {
			if sh.pidVars == nil {
				sh.pidVars = map[string][]*job{}
			}
			sh.pidVars[v.name] = v.jobs
		} else {
			delete(sh.pidVars, v.name)
		}
		if v.array {
			sh.setArray(v.name)
		} else {
			delete(sh.arrays, v.name)
		}
		if v.joined {
			if sh.joined == nil {
				sh.joined = map[string]bool{}
			}
			sh.joined[v.name] = true
		} else {
			delete(sh.joined, v.name)
		}
		sh.setEmpty(v.name, v.emp)
	}
}
