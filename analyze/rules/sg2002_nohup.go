package rules

import "github.com/shguard/shguard/analyze/diag"

// Nohup reports nohup used to start work that outlives the shell.
var Nohup = Rule{
	ID:       "SG2002",
	Name:     "nohup",
	Severity: diag.Warning,
	Summary:  "nohup job outlives the shell; nohup does not redirect output into a pipe",
	Doc: `nohup only makes the program ignore SIGHUP, and redirects its output to
nohup.out only when stdout is a terminal. Under an agent tool stdout is a
pipe, so nohup cmd & still holds the caller's output, and the job outlives
the shell with nobody managing it. Redirect explicitly and manage the job.`,
	Wrong: `nohup ./server --port 8080 >/tmp/server.log 2>&1 &`,
	Right: `./server --port 8080 >/tmp/server.log 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if j.Nohup && j.Reportable() {
				p.Report(j.Start, j.End,
					p.quoted(j)+" is meant to outlive the shell, unmanaged (and nohup redirects nothing when output is a pipe); "+advice(j))
			}
		}
	},
}
