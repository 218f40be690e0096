package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// setopt follows zsh's `setopt NAME…` and `unsetopt NAME…` (unset) for the
// options the walk keeps: ERR_EXIT, as `set -e` (`setopt ERR_EXIT; server &
// false; kill $!` ends at the false and leaves the server), NO_UNSET, as
// `set -u`, SH_WORD_SPLIT, KSH_ARRAYS (arrays from 0: `pids+=($!); kill
// ${pids[0]}` stops the job, and `$pids[1]` is `$pids` and the text [1]),
// and POSIX_TRAPS (an EXIT trap a function sets is the shell's, run when
// it exits; checked under zsh 5.9). Only a shell with those builtins (dialect.setoptBuiltins)
// changes anything; elsewhere setopt is a program that is not found.
func (w *walker) setopt(args []*syntax.Word, unset bool) {
	if !w.sh.d.SetoptBuiltins {
		return
	}
	for _, o := range []struct {
		name string
		v    *bool
	}{{"errexit", &w.sh.errexit}, {"nounset", &w.sh.nounset}, {"shwordsplit", &w.sh.wordSplit}, {"ksharrays", &w.sh.kshArrays}, {"posixtraps", &w.sh.posixTraps}, {"localtraps", &w.sh.localTraps}} {
		if on, off := setoptChanges(args, unset, o.name); on && w.surelyRuns() {
			*o.v = true
		} else if off {
			*o.v = false
		}
	}
}

// emulate follows zsh's `emulate [-LR] sh|ksh|zsh|csh` (without -c, whose
// code runs under the emulation alone): sh and ksh turn SH_WORD_SPLIT,
// KSH_ARRAYS and POSIX_TRAPS on, zsh and csh off (zshoptions(1): each
// <K> <S>), so after `emulate sh` an unquoted `kill $pids` splits the
// pids a string holds and `${pids[0]}` is the first pid.
func (w *walker) emulate(args []*syntax.Word) {
	if !w.sh.d.SetoptBuiltins {
		return
	}
	for _, a := range args {
		switch o := knowledge.WordLit(a); {
		case strings.HasPrefix(o, "-") && o != "-L" && o != "-R" && o != "-LR" && o != "-RL":
			return // -c code, or an option not known here
		case o == "sh" || o == "ksh":
			if w.surelyRuns() {
				w.sh.wordSplit, w.sh.kshArrays, w.sh.posixTraps = true, true, true
			}
			return
		case o == "zsh" || o == "csh":
			w.sh.wordSplit, w.sh.kshArrays, w.sh.posixTraps = false, false, false
			return
		}
	}
}

// splitsWords reports whether an unquoted $var is split into words: in
// every shell but zsh, and in zsh under SH_WORD_SPLIT.
func (w *walker) splitsWords() bool { return w.sh.d.SplitsWords || w.sh.wordSplit }

// setoptChanges reports how `setopt ARGS` (unset: `unsetopt ARGS`)
// changes the option name (lower case, no underscores): on when it turns
// it on, off when off. zsh reads an option name ignoring case and
// underscores, and a "no" in front inverts it (zshoptions(1)): `setopt
// NO_UNSET` is `set -u`, `unsetopt NO_ERR_EXIT` is `set -e`. A word that
// is not a literal could be any option: it changes nothing known.
func setoptChanges(args []*syntax.Word, unset bool, name string) (on, off bool) {
	for _, a := range args {
		n := strings.ToLower(strings.ReplaceAll(knowledge.WordLit(a), "_", ""))
		set := !unset
		switch {
		case n == name:
		case "no"+n == name || n == "no"+name:
			set = unset
		default:
			continue
		}
		on, off = set, !set
	}
	return on, off
}

// arraysFromOne reports whether arrays count from 1 and a bare $array is
// every element: zsh without KSH_ARRAYS.
func (w *walker) arraysFromOne() bool { return w.sh.d.ArraysFromOne && !w.sh.kshArrays }

// funcExitTraps reports whether an EXIT trap set in a function is the
// function's (dialect.funcExitTraps): zsh without POSIX_TRAPS.
func (w *walker) funcExitTraps() bool { return w.sh.d.FuncExitTraps && !w.sh.posixTraps }
