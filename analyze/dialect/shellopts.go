package dialect

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// ShellFlags is what a shell's own arguments turn on for the script it
// runs: set -e and set -u from its first command. make runs its recipes
// so with `.SHELLFLAGS := -eu -o pipefail -c` (and `-ec` under .POSIX),
// CI runners with `bash -e {0}`: `bash -e -c 'server & P=$!; false; kill
// $P'` ends at false, and the server keeps the caller's output.
type ShellFlags struct{ Errexit, Nounset bool }

// ShellFlagsOf reads the options a shell's arguments give before its -c
// string or script operand: -e and -u, alone or in a cluster (`-eu`,
// `-ec`, `-euo pipefail`), `-o errexit` and `-o nounset` (zsh's names
// loosely, `-o err_exit`); a + turns one off, and long options (`--norc`)
// are skipped. refused: an `-o NAME` the shell d does not know, which
// dash, zsh and mksh refuse before running anything (dash's "Illegal
// option -o pipefail": `sh -eu -o pipefail -c '…'` runs nothing where
// /bin/sh is dash); bash's names are not listed (see dialect.setLetters).
func ShellFlagsOf(args []*syntax.Word, d *Dialect) (set ShellFlags, refused bool) {
	a := ReadShellArgs(args)
	if d.setLetters != "" {
		for _, name := range a.options {
			refused = refused || name != "" && !d.setName(name)
		}
	}
	return a.set, refused
}

// ShellArgs reads a shell's arguments as bash (and POSIX sh) do: options
// first, -c anywhere among them; the first operand (after --, if any) is
// then the command string, or without -c a script file. sflag: -s, which
// reads the script from stdin even with operands.
func ShellArgs(args []*syntax.Word) (script *syntax.Word, cflag, sflag bool, operand *syntax.Word) {
	a := ReadShellArgs(args)
	return a.Script, a.cflag, a.sflag, a.operand
}

// shellArgv is a shell's arguments read once (see shellArgs and
// shellFlagsOf): options is the names its -o options give, in order.
type shellArgv struct {
	Script, operand *syntax.Word
	// After are the words after the operand: a -c string's $0 and
	// positional parameters (see scriptParams).
	After        []*syntax.Word
	cflag, sflag bool
	set          ShellFlags
	options      []string
}

// ReadShellArgs reads the options up to the first operand (or after --).
// Each o or O of a cluster takes the next word as its value: -euo
// pipefail is -e -u -o pipefail.
func ReadShellArgs(args []*syntax.Word) (a shellArgv) {
	for i := 0; i < len(args); i++ {
		v := knowledge.WordLit(args[i])
		if v == "--" || v == "-" {
			if i+1 < len(args) {
				a.operand, a.After = args[i+1], args[i+2:]
			}
			break
		}
		if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
			a.operand, a.After = args[i], args[i+1:]
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
			case 'c':
				a.cflag = true
			case 's':
				a.sflag = true
			case 'e':
				a.set.Errexit = on
			case 'u':
				a.set.Nounset = on
			case 'o', 'O':
				if i+1 >= len(args) {
					break
				}
				i++
				if c == 'O' {
					break // bash's shopt names: -O inherit_errexit
				}
				name := knowledge.WordLit(args[i])
				switch strings.ToLower(strings.ReplaceAll(name, "_", "")) {
				case "errexit":
					a.set.Errexit = on
				case "nounset":
					a.set.Nounset = on
				}
				a.options = append(a.options, name)
			}
		}
	}
	if a.cflag {
		a.Script = a.operand
	}
	return a
}
