package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
)

// Shells are pooled: newShell takes an ended one back and resets every
// field, so that one analysis per command allocates only what grows.

// newShell returns an empty shell, reusing one that ended: subshells come
// and go at every ( ), $( ), pipeline element and job body.
func (w *walker) newShell(kind shellKind, async bool) *shell {
	// A subshell is a fork of the current shell: the same program. A
	// nested shell's program is set by its caller (nestedCode).
	d := dialect.DialectBash
	if w.sh != nil {
		d = w.sh.d
	}
	var sh *shell
	if n := len(w.free); n > 0 {
		sh = w.free[n-1]
		w.free = w.free[:n-1]
		sh.reset(kind, async, d)
	} else {
		sh = &shell{kind: kind, async: async, d: d}
	}
	sh.maybes = maybes{w.sureCond(), w.branching, w.again}
	if kind == shSubshell && d.CompoundHoldsJob {
		sh.held = 1 // zsh: `( server & jobs )` lists [2]
	}
	if kind == shSubshell && w.sh != nil {
		// A subshell is a copy of its parent: $! and the variables that
		// hold pids name the parent's jobs, which its kill reaches (its
		// wait does not: they are not its children).
		sh.last, sh.alt = w.sh.last, w.sh.alt
		sh.kept, sh.keptTen = w.sh.kept, w.sh.keptTen
		sh.ignored = w.sh.ignored
		sh.sigTraps = keptTraps(sh.sigTraps, w.sh.sigTraps, async)
		sh.expandAliases = w.sh.expandAliases
		for name, a := range w.sh.aliases {
			sh.defineAlias(name, a)
		}
		// set -u and set -e hold in it too: `set -u; (echo $UNSET; server
		// &)` ends the subshell before the server starts.
		sh.nounset, sh.errexit, sh.pipefail, sh.wordSplit = w.sh.nounset, w.sh.errexit, w.sh.pipefail, w.sh.wordSplit
		sh.kshArrays, sh.posixTraps, sh.localTraps = w.sh.kshArrays, w.sh.posixTraps, w.sh.localTraps
		for name, js := range w.sh.pidVars {
			if sh.pidVars == nil {
				sh.pidVars = map[string][]*Job{}
			}
			sh.pidVars[name] = append(sh.pidVars[name][:0], js...)
		}
		for name := range w.sh.arrays {
			sh.setArray(name)
		}
		for name := range w.sh.empty {
			sh.setEmpty(name, true)
		}
	}
	return sh
}

// reset empties a shell for reuse, keeping the memory of its job list and
// tables. Its fields are cleared one by one, and only those still set (see
// pass.reset for why); TestShellReset fails for a field added to shell
// until it is cleared here.
func (sh *shell) reset(kind shellKind, async bool, d *dialect.Dialect) {
	if len(sh.jobs) > 0 {
		clear(sh.jobs)
		sh.jobs = sh.jobs[:0]
	}
	clear(sh.pidVars)
	clear(sh.empty)
	if len(sh.traps) > 0 {
		sh.traps = sh.traps[:0]
	}
	if len(sh.errTraps) > 0 {
		sh.errTraps = sh.errTraps[:0]
	}
	if len(sh.sigTraps) > 0 {
		sh.sigTraps = sh.sigTraps[:0]
	}
	zero(&sh.last)
	zeroSlice(&sh.alt)
	zeroMap(&sh.arrays)
	zeroMap(&sh.joined)
	zeroMap(&sh.statusVars)
	zero(&sh.process)
	zeroMap(&sh.aliases)
	zero(&sh.expandAliases)
	if sh.d != d {
		sh.d = d
	}
	sh.kind, sh.async, sh.monitor, sh.held, sh.maxNum, sh.leads, sh.inherited = kind, async, false, 0, 0, false, 0
	sh.kept, sh.keptTen, sh.ignored, sh.replaced = fdtable.Table{}, false, 0, false
	sh.keep, sh.nounset, sh.errexit, sh.skipTraps, sh.execsElem, sh.ended = false, false, false, false, false, false
	sh.pipefail, sh.ownFuncs, sh.wordSplit, sh.kshArrays, sh.posixTraps, sh.localTraps = false, false, false, false, false, false
	zeroSlice(&sh.inPlace)
	zeroSlice(&sh.fgBody)
	zero(&sh.fgElem)
	sh.scriptChild, sh.inPlaceKnown, sh.fgForm = false, false, 0
	zeroMap(&sh.outerFuncs)
	sh.maybes = maybes{}
}
