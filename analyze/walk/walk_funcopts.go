package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Options a function call sets are the shell's for good, except where the
// function makes them its own: bash's and dash's `local -`, zsh's `setopt
// localoptions` (LOCAL_OPTIONS, any spelling; `emulate -L`), and every
// mksh function declared `function name { … }` (exec.c restores the
// shell_flags of a Korn-style function on return; `function name() { … }`
// and `name() { … }` are Bourne-style there). When such a call returns,
// set -e, set -u, pipefail and set -m are what they were before it: `start()
// { local -; set -e; server & P=$!; }; start; false; kill $P` stops the
// server (checked under the four shells; zsh's and mksh's `local -` only
// lists variables).

// shellOpts are the options the walk keeps for a shell.
type shellOpts struct {
	errexit, nounset, pipefail, monitor, wordSplit, kshArrays, posixTraps, localTraps bool
}

func (sh *shell) opts() shellOpts {
	return shellOpts{sh.errexit, sh.nounset, sh.pipefail, sh.monitor, sh.wordSplit, sh.kshArrays, sh.posixTraps, sh.localTraps}
}

func (sh *shell) setOpts(o shellOpts) {
	sh.errexit, sh.nounset, sh.pipefail, sh.monitor, sh.wordSplit = o.errexit, o.nounset, o.pipefail, o.monitor, o.wordSplit
	sh.kshArrays, sh.posixTraps, sh.localTraps = o.kshArrays, o.posixTraps, o.localTraps
}

// callOpts walks a function call through walk and puts the shell's options
// back when it returns, if the function made them its own: declared
// Korn-style where the dialect scopes those (kshStyle), or by a command
// in its body (see noteLocalOpts).
func (w *walker) callOpts(kshStyle bool, walk func()) {
	sh, before, outer := w.sh, w.sh.opts(), w.fns.localOpts
	w.fns.localOpts = kshStyle && sh.d.KshFuncOptsLocal
	walk()
	if w.fns.localOpts && w.sh == sh {
		sh.setOpts(before)
	}
	w.fns.localOpts = outer
}

// noteLocalOpts notes a command that makes the options of the function
// being called its own: `local -` (dialect.localDashOpts), zsh's `setopt
// localoptions` and `emulate -L`.
func (w *walker) noteLocalOpts(c syntax.Command) {
	if len(w.fns.calling) == 0 || !w.surelyRuns() {
		return
	}
	var args []*syntax.Word
	switch c := c.(type) {
	case *syntax.CallExpr:
		args = c.Args
	case *syntax.DeclClause:
		args = []*syntax.Word{{Parts: []syntax.WordPart{c.Variant}}}
		for _, a := range c.Args {
			if a.Naked && a.Name == nil && a.Value != nil {
				args = append(args, a.Value)
			}
		}
	}
	if len(args) < 2 {
		return
	}
	d := w.sh.d
	switch knowledge.WordLit(args[0]) {
	case "local":
		w.fns.localOpts = w.fns.localOpts || d.LocalDashOpts && hasWord(args[1:], "-")
	case "setopt", "set":
		if d.SetoptBuiltins {
			on, _ := setoptChanges(args[1:], false, "localoptions")
			w.fns.localOpts = w.fns.localOpts || on
		}
	case "emulate":
		for _, a := range args[1:] {
			if o := knowledge.WordLit(a); d.SetoptBuiltins && strings.HasPrefix(o, "-") && strings.Contains(o, "L") {
				w.fns.localOpts = true
			}
		}
	}
}

// hasWord reports whether one of ws is the literal s.
func hasWord(ws []*syntax.Word, s string) bool {
	for _, a := range ws {
		if knowledge.WordLit(a) == s {
			return true
		}
	}
	return false
}
