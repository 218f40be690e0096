package rules

import "github.com/shguard/shguard/analyze/diag"

// SetsidForeground advises on setsid run in the foreground.
var SetsidForeground = Rule{
	ID:       "SG3002",
	Name:     "setsid-foreground",
	Severity: diag.Info,
	Summary:  "setsid in the foreground leaves the process group, and forks away if the shell leads its group",
	Doc: `Run in the foreground, setsid cmd waits for cmd only while setsid is not a
process-group leader. It is one when the shell execs it in place (the last
command of a -c string, or exec setsid) and the caller started the shell as
the leader of its group, as agent tools do: then setsid forks and returns at
once, leaving cmd holding the output, and shguard reports that as the hang
it is (SG1001). Elsewhere setsid runs cmd in place, but a timeout's group
kill never reaches cmd. If a new session is not what you need, drop setsid.`,
	Wrong: `setsid ./build.sh; echo built`,
	Right: `./build.sh; echo built`,
	check: func(p *Pass) {
		for _, m := range p.Marks {
			if m.Rule == "SG3002" {
				p.Report(m.Start, m.End,
					p.snippet(m.Start, m.End)+" leaves the process group: a timeout that kills the group misses it, and if the shell leads its own group setsid forks and returns at once; drop setsid unless you need a new session")
			}
		}
	},
}
