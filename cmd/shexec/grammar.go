//go:build linux || darwin || freebsd

package main

import (
	"path/filepath"
	"strings"
)

// The shells' own invocation grammar. shexec takes the arguments of the
// shell it runs, so that `make SHELL=shexec` (.SHELLFLAGS -eu -o pipefail
// -c), `shexec -lc CMD`, `shexec script.sh ARGS` and `... | shexec -s ARGS`
// mean what they mean to that shell. shexec only needs to know where the
// options end and what comes after them (a command string, a script file,
// operands); the options themselves go to the shell unchanged, so that the
// shell, not shexec, accepts, refuses and reports them.

// grammar is how one shell reads its options.
type grammar struct {
	// takesArg are the option letters whose argument is the next word
	// (bash -o pipefail, -O extglob).
	takesArg string
	// attached: an option letter's argument may also be the rest of its
	// word (zsh and mksh -oerrexit); bash and dash always take the next word.
	attached bool
	// longTakesArg are the --long options whose argument is the next word.
	longTakesArg []string
	// endLetter, when not 0, is a letter that ends the options like "--"
	// does (zsh -b).
	endLetter byte
}

// grammars is the table per shell, by the shell's base name. Every shell
// also ends its options at "-" and "--", and reads -c (command string), -s
// (script on stdin, words are operands) and -i (interactive) alike.
var grammars = map[string]grammar{
	"bash": {takesArg: "oO", longTakesArg: []string{"rcfile", "init-file"}},
	"zsh":  {takesArg: "o", attached: true, endLetter: 'b'},
	"dash": {takesArg: "o"},
	"sh":   {takesArg: "o"}, // POSIX sh: dash, or bash in posix mode; both read -o's argument from the next word
	"ksh":  {takesArg: "oT", attached: true},
	"mksh": {takesArg: "oT", attached: true},
}

// grammarFor returns the grammar of a shell given as a name or a path
// (/bin/bash, zsh-5.9); an unknown shell gets the POSIX sh grammar.
func grammarFor(shell string) grammar {
	base := filepath.Base(shell)
	if g, ok := grammars[base]; ok {
		return g
	}
	for name, g := range grammars {
		if strings.HasPrefix(base, name+"-") || strings.HasPrefix(base, name+".") {
			return g
		}
	}
	return grammars["sh"]
}

// scriptMode says where the shell will read its script from.
type scriptMode int

const (
	// modeCommand: the command string of -c.
	modeCommand scriptMode = iota
	// modeFile: a script file, the first word after the options.
	modeFile
	// modeStdin: the script on standard input (-s, or no words left); an
	// interactive shell when stdin is a terminal.
	modeStdin
	// modeInvalid: an invocation the shell refuses (-c without a command
	// string); it is passed on as is so that the shell says why.
	modeInvalid
)

// invocation is a parsed shell command line.
type invocation struct {
	mode scriptMode
	// flags are the words up to the command string, the script file or the
	// operands, as written: ["-eu", "-o", "pipefail", "-c"], ["-lc"].
	flags []string
	// command is -c's command string (modeCommand); file is the script file
	// (modeFile).
	command, file string
	// operands follow: NAME and ARGS after a command string ($0 and $@),
	// ARGS after a script file or for a script on stdin ($@).
	operands []string
	// interactive: -i was given.
	interactive bool
	// noexec: -n or -o noexec, the shell reads the script without running
	// it, so nothing of it may be started by anyone else either.
	noexec bool
}

// args is the invocation's whole argument list, as the shell gets it.
func (inv invocation) args() []string {
	out := append([]string(nil), inv.flags...)
	switch inv.mode {
	case modeCommand:
		out = append(out, inv.command)
	case modeFile:
		out = append(out, inv.file)
	}
	return append(out, inv.operands...)
}

// parseInvocation reads args as the shell of grammar g reads its own.
func parseInvocation(g grammar, args []string) invocation {
	var inv invocation
	command, stdin := false, false
	i := 0
words:
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-" || a == "--":
			i++
			break words
		case strings.HasPrefix(a, "--"):
			name := a[2:]
			i++
			if isNoexec(name) {
				inv.noexec = true
			}
			for _, l := range g.longTakesArg {
				if name == l && i < len(args) {
					i++
				}
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			i++
			on := a[0] == '-'
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case c == g.endLetter && on:
					break words
				case strings.IndexByte(g.takesArg, c) >= 0:
					arg := ""
					if g.attached && j+1 < len(a) {
						arg = a[j+1:]
					} else if i < len(args) {
						arg = args[i]
						i++
					}
					if c == 'o' && on && isNoexec(arg) {
						inv.noexec = true
					}
					continue words
				case !on:
				case c == 'c':
					command = true
				case c == 's':
					stdin = true
				case c == 'i':
					inv.interactive = true
				case c == 'n':
					inv.noexec = true
				}
			}
		default:
			break words
		}
	}
	inv.flags, args = args[:i:i], args[i:]
	switch {
	case command && len(args) == 0:
		inv.mode, inv.operands = modeInvalid, args
	case command:
		inv.mode, inv.command, inv.operands = modeCommand, args[0], args[1:]
	case stdin || len(args) == 0:
		inv.mode, inv.operands = modeStdin, args
	default:
		inv.mode, inv.file, inv.operands = modeFile, args[0], args[1:]
	}
	return inv
}

// isNoexec recognises the noexec option by its names in bash, zsh and POSIX
// sh (zsh ignores case and underscores, and reads a "no" prefix as "not").
func isNoexec(name string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	return n == "noexec"
}
