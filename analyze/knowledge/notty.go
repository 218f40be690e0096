package knowledge

import "strings"

// needsTerminal reports whether the program fails at once, having run
// nothing, when the shell has no controlling terminal, as agent tools and
// CI run it (the same assumption as zsh's `set -m`, see walk_setopt.go).
//
// entr without -n opens /dev/tty to read its keys and exits 1 with
// "unable to get terminal attributes, use '-n' to run non-interactively"
// when tcgetattr fails (eradman/entr entr.c, main), before it runs its
// utility even once: `ls *.go | entr -r go run . &` starts nothing and
// holds nothing, in a pipeline or alone, with -r, -s, -z or none
// (entr 5.3, measured in a PID namespace with no terminal). With -n it
// runs, and its -r child is in a process group of its own that a TERM
// to entr ends (terminate_utility's killpg).
func needsTerminal(r Resolved) bool {
	if r.Name != "entr" {
		return false
	}
	for _, a := range ArgvOf(r) {
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break // the utility and its arguments
		}
		if strings.IndexByte(a[1:], 'n') >= 0 {
			return false
		}
	}
	return true
}
