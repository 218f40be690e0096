package rules

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
)

// NotPOSIX reports a script for sh that uses syntax sh does not have.
var NotPOSIX = Rule{
	ID:       "SG3003",
	Name:     "bash-syntax-in-sh",
	Severity: diag.Info,
	Summary:  "A script for sh uses bash syntax: sh (dash on Debian and Ubuntu) will stop at it",
	Doc: `The shebang says sh, but the script uses syntax that only bash (or zsh,
mksh) accepts: arrays, <(…), function f {, ${x:0:3}... The shebang is a
guess at the shell (such scripts are often run as 'bash x.sh'); where the
shell is known (-s, a directive, .shguardrc, the shell an agent runs), a
script dash cannot parse is not valid dash (SG1000), and only what dash
refuses as it expands (${x:0:3}, ${pids[@]}) is reported here.
Where /bin/sh is dash (Debian, Ubuntu, Alpine) the script fails there at run
time: dash runs the lines before it and exits, and so does the analysis
(bash's ${x[@]}, ${x:0:3}, ${x//a/b} it refuses only where it expands them,
after the commands before them on their line).
Where sh is bash, shguard analyses the rest as bash syntax, still modelling
what sh does with processes. It reports this once, at the first such place. Say #!/bin/bash if
it is a bash script, or write it in POSIX sh.`,
	Shell: dialect.LangPOSIX,
	Wrong: "#!/bin/sh\nx=(a b); echo \"${x[0]}\"",
	Right: "#!/bin/sh\nset -- a b; echo \"$1\"",
	check: func(p *Pass) {
		if e := p.NotPOSIX; e != nil {
			off := max(e.Offset, 0)
			how := "analysed as bash"
			if p.Cfg.Lang.Dialect().BashSyntaxStops {
				how = "sh stops here and runs nothing after it"
				if bad := p.Root.Src.Bad; len(bad) > 0 && bad[0] <= off {
					how = "sh ends the script where it expands this (the commands before it run)"
					off = bad[0]
				}
			}
			p.Report(off, off, "sh cannot run this ("+e.Msg+"); "+how+": use a bash shebang if it is a bash script")
		}
	},
}
