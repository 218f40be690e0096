package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
)

// The traps a zsh function sets. zsh runs an EXIT trap a function sets
// when that function returns, and leaves the shell's own as it was
// (dialect.funcExitTraps), unless POSIX_TRAPS is on where the trap is
// set: then it is the shell's, run when the shell exits. `emulate sh` and
// `emulate ksh` turn it on (see walk_setopt.go), and so does `emulate -L
// sh` inside the function, for the traps set after it there: `f() {
// emulate -L sh; trap 'kill $P' EXIT; }; f; server & P=$!` stops the
// server as the script exits (without the emulate the trap runs as f
// returns, while $P names nothing yet, and the server is left). A signal
// trap a function sets while LOCAL_TRAPS is on (`setopt localtraps`) is
// the function's: the trap the signal had before is back when it returns,
// so `trap 'kill $P' TERM; f() { setopt localtraps; trap - TERM; }; f;
// kill $$` still runs it (zshoptions(1); both checked under zsh 5.9).

// funcTraps starts the traps of a function call (see above) and returns
// the function that ends them as the call returns: the EXIT traps the
// body set as its own run then, those set under POSIX_TRAPS replace the
// shell's, and the signal traps it set under LOCAL_TRAPS are put back.
func (w *walker) funcTraps() func() {
	sh := w.sh
	if !sh.d.SetoptBuiltins {
		return func() {}
	}
	saved, outerSigs := slices.Clone(sh.sigTraps), w.traps.localTrapSigs
	w.traps.localTrapSigs = 0
	exits := w.funcExitTraps()
	outer := sh.traps
	if exits {
		sh.traps = nil
	}
	return func() {
		if exits {
			own := sh.traps
			sh.traps = outer
			var mine []trapBody
			for _, t := range own {
				if t.posix {
					sh.traps = []trapBody{t} // the shell's, in place of the one before
				} else {
					mine = append(mine, t)
				}
			}
			w.runTraps(mine)
		}
		if set := w.traps.localTrapSigs; set != 0 && w.sh == sh {
			w.dropSigTraps(set)
			for _, t := range saved {
				if t.sigs&set != 0 {
					t.sigs &= set
					sh.sigTraps = append(sh.sigTraps, t)
				}
			}
		}
		w.traps.localTrapSigs = outerSigs
	}
}

// noteLocalTrap notes that a function being called sets or resets the
// traps on set while LOCAL_TRAPS is on (see funcTraps).
func (w *walker) noteLocalTrap(set dialect.SigSet) {
	if w.sh.localTraps && len(w.fns.calling) > 0 {
		w.traps.localTrapSigs |= set
	}
}
