package walk

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zsh does not split an unquoted parameter into words (unless
// SH_WORD_SPLIT is on: `setopt shwordsplit`, `emulate sh`, `${=cmd}`), so
// a command named by one whose value has a blank names a program called
// by the whole value:
//
//	cmd='npm run dev'; $cmd &
//
// looks for a program "npm run dev", finds none ("command not found",
// status 127) and starts nothing, where bash, dash and mksh run npm with
// two arguments (checked under zsh 5.9, with `sleep 3` for the value).

// unsplitName reports whether the command's first word is a lone unquoted
// parameter whose value the walk knows and has a blank in it, in a shell
// that does not split it. (Behind a wrapper, `nohup $cmd &`, the program
// is not followed: resolve stops at the first word that is no literal.)
func (w *walker) unsplitName(ce *syntax.CallExpr) bool {
	if len(ce.Args) == 0 {
		return false
	}
	pe, quoted := loneParam(ce.Args[0])
	if pe == nil || quoted || pe.Flags != nil {
		return false
	}
	switch splits := w.splitsWords(); {
	case pe.Split == syntax.OptOn, splits && pe.Split != syntax.OptOff:
		return false // ${=cmd}; ${==cmd} splits nothing even then
	}
	v, ok := w.constParam(pe)
	return ok && strings.ContainsAny(v, " \t\n")
}
