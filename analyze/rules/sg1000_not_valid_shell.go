package rules

import "github.com/shguard/shguard/analyze/diag"

// NotValidShell is a command or script that the shell it is analysed for
// cannot parse. Analyze returns it as a *ParseError (nothing else can be
// said of such a script); ParseError.Finding turns it into this rule's
// finding, so that linters report it where CI looks, as ShellCheck
// reports its parse errors.
var NotValidShell = Rule{
	ID:       diag.ParseErrorRule,
	Name:     "not-valid-shell",
	Severity: diag.Error,
	Summary:  "The script is not valid in the shell it is analysed for: that shell would refuse to run it",
	Doc: `The shell reads a -c string or a script a line (or a complete command) at a
time and stops at the first one it cannot parse, so a syntax error means the
script does not do what it says. When another shell would accept it (zsh's
&!, bash's [[ ]] in a #!/bin/sh script), the message names that shell: pick
it with -s, a '# shguard shell=NAME' line or the shebang.`,
	Wrong: `if true; then echo yes`,
	Right: `if true; then echo yes; fi`,
	// Reported from a *ParseError (ParseError.Finding), not by a check.
}
