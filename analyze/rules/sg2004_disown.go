package rules

import (
	"slices"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/walk"
)

// Disown reports disown of a running job.
var Disown = Rule{
	ID:       "SG2004",
	Name:     "disown",
	Severity: diag.Warning,
	Summary:  "disown removes a job from the job table: wait cannot reach it and it outlives the shell",
	Doc: `disown removes the job from the shell's table: wait no longer waits for it,
and it keeps running after the shell exits with nobody tracking it.`,
	Wrong: `./watcher >/tmp/watch.log 2>&1 & disown`,
	Right: `./watcher >/tmp/watch.log 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, m := range p.Marks {
			// $! and pid variables still reach a disowned job: one
			// killed later does not outlive the shell.
			if m.Rule == "SG2004" && slices.ContainsFunc(m.Jobs, func(j *walk.Job) bool { return !j.Killed }) {
				p.Report(m.Start, m.End,
					p.snippet(m.Start, m.End)+" removes the job from the job table: nothing waits for it and it outlives the shell unmanaged; keep the job and wait for or stop it, or start it as a managed job")
			}
		}
	},
}
