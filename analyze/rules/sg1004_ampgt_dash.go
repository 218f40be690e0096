package rules

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
)

// AmpGtDash reports `&>` in a script run by dash, which reads it as `&`
// followed by `>` (see parseAmpGt).
var AmpGtDash = Rule{
	ID:       "SG1004",
	Name:     "ampgt-in-dash",
	Severity: diag.Error,
	Summary:  "dash reads `cmd &>file` as `cmd &` then `>file`: cmd runs in the background with the caller's output",
	Doc: `&> is bash's (and zsh's and mksh's) shorthand for >file 2>&1. dash, which is
/bin/sh on Debian, Ubuntu and Alpine, has no such operator: it reads
"server &>/dev/null" as "server &" followed by the empty command ">/dev/null".
server runs in the background with the caller's stdout and stderr, so an agent
tool that reads them waits for it; the redirection only truncates the file.
Write the portable form, >file 2>&1.`,
	Shell: dialect.LangDash,
	Wrong: `./server &>/dev/null &`,
	Right: `./server >/dev/null 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if !j.AmpGt || !j.Reportable() || !j.Fds.Holds() {
				continue
			}
			f := p.Report(j.Start, j.End,
				"dash reads `&>` as `&` then `>`: "+p.quoted(j)+" runs in the background with the caller's "+held(&j.Fds)+", and the caller waits for it; write `>file 2>&1` instead of `&>file`")
			f.Suggestion = "replace `&>FILE` with `>FILE 2>&1`"
		}
	},
}
