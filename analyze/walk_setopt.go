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
}

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
