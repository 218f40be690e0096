package dialect

import (
	"mvdan.cc/sh/v3/syntax"
)

const (
	BracesNone  BraceKind = iota // dash: `{a,b}` and `{1..3}` are text
	BracesLists                  // mksh: `{a,b}`; `{1..3}` is text
	BracesAll                    // bash, zsh: `{a,b}`, `{1..3}`, `{a..c}`, `{1..9..2}`
)

// dashRefuses reports whether dash refuses a parameter expansion when it
// expands it: anything but a name with POSIX's operators (- = ? + % #,
// with or without the colon) and ${#name}.
// zshRefuses and mkshRefuses are the same for zsh (bash's ${!name},
// ${!name[@]}, ${x^^}, ${x,,}, ${x@Q}) and mksh (${x^^}, ${x,,}), each
// of which ends the shell with "bad substitution" after the commands
// before it (zsh 5.9, mksh R59: `x=ab; echo before; echo ${!x}; echo
// after` prints before). mvdan.cc/sh refuses them when it parses as zsh
// or mksh, so such a source is read as bash's (see expansionsRead).
func dashRefuses(pe *syntax.ParamExp) bool {
	if pe.Short {
		return false
	}
	if pe.Excl || pe.Width || pe.IsSet || pe.Flags != nil || pe.NestedParam != nil ||
		pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Names != 0 {
		return true
	}
	return pe.Exp != nil && pe.Exp.Op > syntax.RemLargePrefix
}

func zshRefuses(pe *syntax.ParamExp) bool {
	return !pe.Short && pe.Excl || caseOrQuoteOp(pe)
}

func mkshRefuses(pe *syntax.ParamExp) bool {
	return pe.Exp != nil && pe.Exp.Op >= syntax.UpperFirst && pe.Exp.Op <= syntax.LowerAll
}

// caseOrQuoteOp: ${x^}, ${x^^}, ${x,}, ${x,,} and ${x@OP}.
func caseOrQuoteOp(pe *syntax.ParamExp) bool {
	return pe.Exp != nil && pe.Exp.Op >= syntax.UpperFirst && pe.Exp.Op <= syntax.OtherParamOps
}

// ExpansionRefused reports whether the shell refuses pe where it expands
// it ("bad substitution"): never in bash.
func (d *Dialect) ExpansionRefused(pe *syntax.ParamExp) bool {
	return d.RefusesExpansion != nil && d.RefusesExpansion(pe)
}
