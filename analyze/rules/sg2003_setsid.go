package rules

import "github.com/shguard/shguard/analyze/diag"

// Setsid reports work started with setsid in the background or with
// setsid -f: it leaves the shell's process group and session.
var Setsid = Rule{
	ID:       "SG2003",
	Name:     "setsid",
	Severity: diag.Warning,
	Summary:  "setsid job leaves the process group: it outlives the shell and a group kill misses it",
	Doc: `setsid starts the program in a new session. A caller that stops the
command by killing its process group (every timeout does) no longer reaches
it, and setsid -f forks and returns at once, so the shell cannot even wait
for it. Start it as a managed job instead, which tracks it wherever it goes.`,
	Wrong: `setsid -f ./worker >/tmp/worker.log 2>&1`,
	Right: `./worker >/tmp/worker.log 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if j.Setsid && j.Reportable() {
				p.Report(j.Start, j.End,
					p.quoted(j)+" runs in a new session: it outlives the shell, and killing the command's process group will not reach it; start it as a managed job")
			}
		}
	},
}
