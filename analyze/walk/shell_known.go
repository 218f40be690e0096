package walk

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// knownShellRefuses returns the parse error of a source the shell (dash,
// or sh where it is dash) refuses as it parses, when the shell is known
// (see WithShebangShell); nil when the guess lets the analysis read it as
// bash, or when dash parses it and only refuses its expansions where it
// expands them (`${x:0:2}`, `${pids[@]}`: "Bad substitution" at run time,
// after the commands before it ran; badSubstsRead follows that). bf is the
// source as bash parses it, nil when bash refuses it too.
func knownShellRefuses(p *Pass, src []byte, bf *syntax.File, d *dialect.Dialect) *diag.ParseError {
	if p.Cfg.ShebangGuess || !d.BashSyntaxStops {
		return nil
	}
	text := src
	if bf != nil {
		if patched, _ := patchRefused(src, bf, d); patched != nil {
			text = patched
		}
	}
	_, err := dialect.Parse(text, d.Variant)
	if err != nil {
		_, _, err = dialect.Reread(text, d, err) // dash's `&>` (see ampgt.go)
	}
	pe, _ := err.(*diag.ParseError)
	if pe != nil {
		pe.Src = src // (explainParseError tries the other shells on it)
	}
	return pe
}
