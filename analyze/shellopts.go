package analyze

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellFlags is what a shell's own arguments turn on for the script it
// runs: set -e and set -u from its first command. make runs its recipes
// so with `.SHELLFLAGS := -eu -o pipefail -c` (and `-ec` under .POSIX),
// CI runners with `bash -e {0}`: `bash -e -c 'server & P=$!; false; kill
// $P'` ends at false, and the server keeps the caller's output.
type shellFlags struct{ errexit, nounset bool }

// shellFlagsOf reads the options a shell's arguments give before its -c
// string or script operand: -e and -u, alone or in a cluster (`-eu`,
// `-ec`, `-euo pipefail`), `-o errexit` and `-o nounset` (zsh's names
// loosely, `-o err_exit`); a + turns one off, and long options (`--norc`)
// are skipped. refused: an `-o NAME` the shell d does not know, which
// dash, zsh and mksh refuse before running anything (dash's "Illegal
// option -o pipefail": `sh -eu -o pipefail -c '…'` runs nothing where
// /bin/sh is dash); bash's names are not listed (see dialect.setLetters).
func shellFlagsOf(args []*syntax.Word, d *dialect) (set shellFlags, refused bool) {
	for i := 0; i < len(args); i++ {
		v := wordLit(args[i])
		if v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			break
		}
		if strings.HasPrefix(v, "--") {
			if v == "--rcfile" || v == "--init-file" {
				i++ // the option's value
			}
			continue
		}
		on := v[0] == '-'
		for _, c := range v[1:] {
			switch c {
			case 'e':
				set.errexit = on
			case 'u':
				set.nounset = on
			case 'o', 'O':
				if i+1 >= len(args) {
					break
				}
				i++
				if c == 'O' {
					break // bash's shopt names: -O inherit_errexit
				}
				name := wordLit(args[i])
				switch strings.ToLower(strings.ReplaceAll(name, "_", "")) {
				case "errexit":
					set.errexit = on
				case "nounset":
					set.nounset = on
				}
				if d.setLetters != "" && name != "" && !d.setName(name) {
					refused = true
				}
			}
		}
	}
	return set, refused
}
