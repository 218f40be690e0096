package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// missingCommand tells whether the simple command ce, resolved to r,
// runs a command that does not exist: a name in dialect.missing, bare or
// behind `command` or `builtin` (dash has no builtin either), or behind
// zsh's `command`, which runs programs only, a builtin no program is
// named after (`command source` fails there), or in every shell a program
// wrapper given a builtin (`nohup source env.sh`, see resolve). A function
// or alias the script defines by that name exists; `.` exists everywhere.
// `exec source` ends the shell as an exec of any program does: that is
// not this.
func (w *walker) missingCommand(ce *syntax.CallExpr, r knowledge.Resolved) dialect.Absence {
	d := w.sh.d
	switch {
	case r.NoProgram && !r.Exec, w.unsplitName(ce):
		return dialect.AbsentFails // (zsh: `cmd='npm run dev'; $cmd &`, see zsh_nosplit.go)
	case d.Missing == nil || r.Name == "" || r.Exec || r.ViaProgram || w.p.defined[r.Name] && !r.Wrapped:
		return dialect.Present // (bash has all its builtins)
	}
	viaBuiltin := false
	for _, a := range ce.Args {
		if a == r.Head {
			break
		}
		if knowledge.ProgramName(knowledge.WordLit(a)) == "builtin" {
			viaBuiltin = true
		}
	}
	switch {
	case viaBuiltin && d.Missing.Has("builtin"):
		return dialect.AbsentFails // dash: builtin: not found
	case d.Missing.Has(r.Name):
		if viaBuiltin {
			return d.MissingBuiltin
		}
		return dialect.AbsentFails
	case r.ViaCommand && d.CommandSkipsBuiltins && knowledge.Builtins.Has(r.Name) && !knowledge.AlsoPrograms.Has(r.Name):
		return dialect.AbsentFails // zsh: command source: no such program
	}
	return dialect.Present
}

// missingRuns walks a command that names a builtin the shell does not
// have (see missingCommand): it does nothing, except that the shell ends
// where such an error is fatal, and a program wrapper that fails so is
// still a fork the shell waits for (see dialect.killRaces). mapfile and readarray assign no array
// then: `mapfile -t P < <(pgrep -P $PID); kill "${P[@]}"` kills nothing
// in zsh and mksh, unless the script assigned P before.
func (w *walker) missingRuns(r knowledge.Resolved, how dialect.Absence) {
	if how == dialect.AbsentFatal {
		w.fatal() // mksh: builtin mapfile
		return
	}
	if r.NoProgram {
		w.forks++ // nohup, env: a program the shell forks and waits for
	}
	if r.Name != "mapfile" && r.Name != "readarray" {
		return
	}
	name := "MAPFILE"
	for _, a := range r.Args {
		if l := knowledge.WordLit(a); l != "" && !strings.HasPrefix(l, "-") {
			name = l // (the words of -d, -n… count too: the last is the array)
		}
	}
	if _, held := w.sh.pidVars[name]; !held && isName(name) {
		w.sh.setEmpty(name, true)
	}
}

// missingStatus is the status of a command that names a builtin the
// shell does not have, or asks with `command -v` whether it has one: it
// fails (1 when negated), or 0 for any other. `command -v mapfile ||
// exit 1` exits in zsh, dash and mksh.
func (w *walker) missingStatus(ce *syntax.CallExpr, negated bool) int {
	a := ce.Args
	fails := false
	if len(a) == 3 && knowledge.WordLit(a[0]) == "command" && knowledge.WordLit(a[1]) == "-v" {
		n := knowledge.WordLit(a[2])
		fails = w.sh.d.Missing.Has(n) && !w.p.defined[n]
	} else if len(a) > 0 {
		fails = w.missingCommand(ce, w.p.resolveCall(ce)) != dialect.Present
	}
	switch {
	case !fails:
		return 0
	case negated:
		return 1
	}
	return -1
}
