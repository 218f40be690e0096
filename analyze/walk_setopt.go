package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// setopt follows zsh's `setopt NAME…` and `unsetopt NAME…` (unset) for the
// options the walk keeps: ERR_EXIT, as `set -e` (`setopt ERR_EXIT; server &
// false; kill $!` ends at the false and leaves the server), and NO_UNSET,
// as `set -u`. Only a shell with those builtins (dialect.setoptBuiltins)
// changes anything; elsewhere setopt is a program that is not found.
func (w *walker) setopt(args []*syntax.Word, unset bool) {
	if !w.sh.d.setoptBuiltins {
		return
	}
	if on, off := setoptChanges(args, unset, "errexit"); on && w.surelyRuns() {
		w.sh.errexit = true
	} else if off {
		w.sh.errexit = false
	}
	if on, off := setoptChanges(args, unset, "nounset"); on && w.surelyRuns() {
		w.sh.nounset = true
	} else if off {
		w.sh.nounset = false
	}
	if on, off := setoptChanges(args, unset, "shwordsplit"); on && w.surelyRuns() {
		w.sh.wordSplit = true
	} else if off {
		w.sh.wordSplit = false
	}
}

// emulate follows zsh's `emulate [-LR] sh|ksh|zsh|csh` (without -c, whose
// code runs under the emulation alone): sh and ksh turn SH_WORD_SPLIT on,
// zsh and csh off (zshoptions(1): SH_WORD_SPLIT <K> <S>), so after
// `emulate sh` an unquoted `kill $pids` splits the pids a string holds.
func (w *walker) emulate(args []*syntax.Word) {
	if !w.sh.d.setoptBuiltins {
		return
	}
	for _, a := range args {
		switch o := wordLit(a); {
		case strings.HasPrefix(o, "-") && o != "-L" && o != "-R" && o != "-LR" && o != "-RL":
			return // -c code, or an option not known here
		case o == "sh" || o == "ksh":
			if w.surelyRuns() {
				w.sh.wordSplit = true
			}
			return
		case o == "zsh" || o == "csh":
			w.sh.wordSplit = false
			return
		}
	}
}

// splitsWords reports whether an unquoted $var is split into words: in
// every shell but zsh, and in zsh under SH_WORD_SPLIT.
func (w *walker) splitsWords() bool { return w.sh.d.splitsWords || w.sh.wordSplit }

// setoptChanges reports how `setopt ARGS` (unset: `unsetopt ARGS`)
// changes the option name (lower case, no underscores): on when it turns
// it on, off when off. zsh reads an option name ignoring case and
// underscores, and a "no" in front inverts it (zshoptions(1)): `setopt
// NO_UNSET` is `set -u`, `unsetopt NO_ERR_EXIT` is `set -e`. A word that
// is not a literal could be any option: it changes nothing known.
func setoptChanges(args []*syntax.Word, unset bool, name string) (on, off bool) {
	for _, a := range args {
		n := strings.ToLower(strings.ReplaceAll(wordLit(a), "_", ""))
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
