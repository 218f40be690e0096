package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// absence is how a simple command names a builtin the shell does not
// have (see dialect.missing).
type absence uint8

const (
	present absence = iota
	// absentFails: "not found" (127), or zsh's `builtin mapfile` ("no
	// such builtin", 1): the command fails and does nothing else.
	absentFails
	// absentFatal: mksh's `builtin mapfile`, a special builtin that
	// fails, which ends the shell (in a function, the call).
	absentFatal
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
func (w *walker) missingCommand(ce *syntax.CallExpr, r resolved) absence {
	d := w.sh.d
	switch {
	case r.noProgram && !r.exec, w.unsplitName(ce):
		return absentFails // (zsh: `cmd='npm run dev'; $cmd &`, see zsh_nosplit.go)
	case d.missing == nil || r.name == "" || r.exec || r.viaProgram || w.p.defined[r.name] && !r.wrapped:
		return present // (bash has all its builtins)
	}
	viaBuiltin := false
	for _, a := range ce.Args {
		if a == r.head {
			break
		}
		if programName(wordLit(a)) == "builtin" {
			viaBuiltin = true
		}
	}
	switch {
	case viaBuiltin && d.missing.has("builtin"):
		return absentFails // dash: builtin: not found
	case d.missing.has(r.name):
		if viaBuiltin {
			return d.missingBuiltin
		}
		return absentFails
	case r.viaCommand && d.commandSkipsBuiltins && builtins.has(r.name) && !alsoPrograms.has(r.name):
		return absentFails // zsh: command source: no such program
	}
	return present
}

// missingRuns walks a command that names a builtin the shell does not
// have (see missingCommand): it does nothing, except that the shell ends
// where such an error is fatal, and a program wrapper that fails so is
// still a fork the shell waits for (see dialect.killRaces). mapfile and readarray assign no array
// then: `mapfile -t P < <(pgrep -P $PID); kill "${P[@]}"` kills nothing
// in zsh and mksh, unless the script assigned P before.
func (w *walker) missingRuns(r resolved, how absence) {
	if how == absentFatal {
		w.fatal() // mksh: builtin mapfile
		return
	}
	if r.noProgram {
		w.forks++ // nohup, env: a program the shell forks and waits for
	}
	if r.name != "mapfile" && r.name != "readarray" {
		return
	}
	name := "MAPFILE"
	for _, a := range r.args {
		if l := wordLit(a); l != "" && !strings.HasPrefix(l, "-") {
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
	if len(a) == 3 && wordLit(a[0]) == "command" && wordLit(a[1]) == "-v" {
		n := wordLit(a[2])
		fails = w.sh.d.missing.has(n) && !w.p.defined[n]
	} else if len(a) > 0 {
		fails = w.missingCommand(ce, w.p.resolveCall(ce)) != present
	}
	switch {
	case !fails:
		return 0
	case negated:
		return 1
	}
	return -1
}
