package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// The trap builtin as the walk follows it: EXIT traps, whose commands run
// when the shell ends, and traps on the signals a kill sends.

// trap remembers EXIT traps: their kill and wait commands run when the
// shell ends; and traps on the signals a kill sends, which run when a kill
// reaches the job this shell runs (see killed).
func (w *walker) trap(args []*syntax.Word) {
	if len(args) == 0 || knowledge.WordLit(args[0]) == "--" {
		if len(args) > 0 {
			w.trap(args[1:])
		}
		return
	}
	sigs := w.sh.d.TrapSets(args[1:])
	if len(args) == 1 {
		sigs = args // `trap EXIT`: a lone signal is reset
	}
	action, _, single := knowledge.Unquote(args[0], false)
	if single && len(action) > 1 && action[0] == '-' {
		return // trap -p, trap -l: they list
	}
	exit := false
	var set dialect.SigSet // the signals of sigSet this trap sets or resets
	for _, a := range sigs {
		switch strings.ToUpper(knowledge.WordLit(a)) {
		case "EXIT", "0", "SIGEXIT":
			exit = true
		case "ERR", "ZERR":
			w.errTrap(args, knowledge.WordLit(a), single, single && (action == "-" || action == "")) // (see walk_errtrap.go)
		case "":
		default:
			// trap '' SIG ignores it from now on; any other action or
			// a reset gives the jobs started after the default again.
			if b := dialect.SigBit(knowledge.WordLit(a)); b != 0 && w.trapSure() {
				set |= b
				if len(args) > 1 && single && action == "" {
					w.sh.ignored |= b
				} else {
					w.sh.ignored &^= b
				}
			}
		}
	}
	if set != 0 {
		w.sigTrap(args, set, single, single && (action == "-" || action == ""))
	}
	if !exit {
		return
	}
	if len(args) == 1 || single && (action == "-" || action == "") {
		// `trap - EXIT`, `trap '' EXIT`: no EXIT trap from now on.
		if w.trapSure() {
			w.sh.traps = w.sh.traps[:0]
		}
		return
	}
	code, offs, ok := literalWithParams(args[0])
	if !ok {
		return
	}
	if w.trapSure() {
		w.sh.traps = w.sh.traps[:0] // a new EXIT trap replaces the old one
	}
	t := w.trapBody(args[0], code, offs, single)
	t.posix = w.sh.posixTraps && len(w.fns.calling) > 0
	w.sh.traps = append(w.sh.traps, t)
}

// trapBody is the action word a of a trap, read as the literal code with
// its offsets; single: in single quotes, its $! expanded when it runs, else
// expanded now (see trapVars).
func (w *walker) trapBody(a *syntax.Word, code string, offs []int, single bool) trapBody {
	t := trapBody{code: code, offs: w.mapOffs(offs), set: !single, last: w.sh.last, region: w.exitRegion(), maybe: !w.trapSure()}
	if !single {
		t.vars = w.trapVars(a)
	}
	return t
}

// trapRuns reports whether `trap ARGS` sets a command to run (not a
// listing, a reset to the default, or an empty action, which ignores).
func trapRuns(args []*syntax.Word, d *dialect.Dialect) bool {
	if len(args) > 0 && knowledge.WordLit(args[0]) == "--" {
		args = args[1:]
	}
	if len(args) < 2 || len(d.TrapSets(args[1:])) == 0 {
		return false
	}
	action, _, single := knowledge.Unquote(args[0], false)
	return !single || action != "" && action[0] != '-'
}

// sigTrap records a trap on the signals set (reset: it ignores them or
// gives them the default action) in place of what was set on them before;
// single: the action is a literal, its $! expanded when it runs.
func (w *walker) sigTrap(args []*syntax.Word, set dialect.SigSet, single, reset bool) {
	w.noteLocalTrap(set) // zsh: setopt localtraps (see zsh_functraps.go)
	w.dropSigTraps(set)
	if len(args) == 1 || reset {
		return
	}
	if code, offs, ok := literalWithParams(args[0]); ok {
		w.sh.sigTraps = append(w.sh.sigTraps, sigTrap{sigs: set, trapBody: w.trapBody(args[0], code, offs, single)})
	}
}

// dropSigTraps takes the signals set out of the traps the shell has.
func (w *walker) dropSigTraps(set dialect.SigSet) {
	sh := w.sh
	sh.sigTraps = slices.DeleteFunc(sh.sigTraps, func(t sigTrap) bool {
		t.sigs &^= set
		return t.sigs == 0
	})
	for i := range sh.sigTraps {
		sh.sigTraps[i].sigs &^= set
	}
}

// trapSure reports whether a trap command being walked runs whenever its
// shell runs: not behind a && or || of that shell's own. A subshell job
// started behind `[ -f .env ] && ` sets its traps for sure once it runs
// (its maybes are the script's; see shell.maybes), and so does the
// script after `[ -f .env ] || exit 1` (see walker.exitConds).
func (w *walker) trapSure() bool { return w.sureCond() == w.sh.maybes.cond }
