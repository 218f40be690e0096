package main

import (
	ctx "context"
	"fmt"
	"io"

	"github.com/shguard/shguard/lsp"
)

const lspUsage = `Usage: shguard lsp [--verbose]

Serves the Language Server Protocol on stdin and stdout, for editors: it
reports shguard's findings in shell scripts as you type (rule code,
severity, exact range, a link to the rule page), offers code actions that
apply each fix, fix the whole file (also as source.fixAll.shguard) or add a
'# shguard disable=SGxxxx -- reason' line, and shows 'shguard explain' on
hover over a finding. It runs beside bash-language-server on one buffer.

A document is a shell script by its language ID (sh, shellscript, bash,
zsh, ksh), its extension (.sh .bash .zsh .ksh .mksh .dash) or its shebang.
Its shell comes from a '# shguard shell=' line, .shguardrc, the shebang,
the language ID, then the shell setting, else bash. Settings (in
initializationOptions or workspace/didChangeConfiguration, alone or under
"shguard"):
  severity  error, warning or info: the least severe reported (default info)
  exclude   rule IDs or names never reported (adds to .shguardrc's)
  shell     the shell of scripts that name none
  caller    leader or group (see shguard --help)
  style     fix style: default or brace
  norc      true: ignore .shguardrc files

Setup for VS Code, Neovim, Helix, Emacs and Zed: docs/editors.md.

Flags:
`

func bg() ctx.Context { return ctx.Background() }

// runLSP serves the language server until the client exits.
func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("shguard lsp")
	verbose := fs.Bool("verbose", false, "log each analysis and its duration on stderr (the editor's LSP log)")
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Bool("stdio", true, "serve on stdin and stdout (the only transport; accepted because clients pass it)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "shguard lsp: %v\nRun 'shguard lsp --help' for usage.\n", err)
		return exitUsage
	}
	if *help {
		fmt.Fprint(stdout, lspUsage+fs.FlagUsages())
		return exitClean
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "shguard lsp: it takes no arguments (it reads LSP messages on stdin)\n")
		return exitUsage
	}
	if err := lsp.Serve(bg(), stdin, stdout, lsp.Options{Log: stderr, Verbose: *verbose}); err != nil {
		fmt.Fprintf(stderr, "shguard lsp: %v\n", err)
		return 1
	}
	return exitClean
}
