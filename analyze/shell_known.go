package analyze

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// WithShebangShell says the shell (WithLang) was read from the script's
// shebang line and nothing else named it: a guess at what will run the
// script, since `#!/bin/sh` scripts full of bash syntax are often run as
// `bash script.sh`. Only then is a sh script that dash cannot parse
// analysed as bash, with SG3003 saying so, as ShellCheck does. Without it
// the shell is known (-s, a directive, .shguardrc, the shell an agent or
// shexec runs), and a source it refuses is a *ParseError (SG1000), as
// for every other shell: dash prints "Syntax error", runs nothing of the
// line and exits 2.
func WithShebangShell() Option { return func(c *config) { c.shebangGuess = true } }

// knownShellRefuses returns the parse error of a source the shell (dash,
// or sh where it is dash) refuses as it parses, when the shell is known
// (see WithShebangShell); nil when the guess lets the analysis read it as
// bash, or when dash parses it and only refuses its expansions where it
// expands them (`${x:0:2}`, `${pids[@]}`: "Bad substitution" at run time,
// after the commands before it ran; badSubstsRead follows that). bf is the
// source as bash parses it, nil when bash refuses it too.
func knownShellRefuses(p *pass, src []byte, bf *syntax.File, d *dialect.Dialect) *diag.ParseError {
	if p.cfg.shebangGuess || !d.BashSyntaxStops {
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
