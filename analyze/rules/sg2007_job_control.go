package rules

import "github.com/shguard/shguard/analyze/diag"

// JobControl reports job control in a non-interactive shell: fg and bg fail
// ("no job control"), and set -m moves every later job into its own process
// group, out of reach of a group kill.
var JobControl = Rule{
	ID:       "SG2007",
	Name:     "job-control",
	Severity: diag.Warning,
	Summary:  "fg, bg and set -m do not work as intended in a non-interactive shell",
	Doc: `bash -c runs without job control: fg and bg fail with "no job control", so
a job that fg was meant to wait for is left running. set -m turns job
control on, which puts every later background job in its own process group,
where a timeout that kills the command's group does not reach it.`,
	Wrong: `sleep 30 >/dev/null 2>&1 & fg`,
	Right: `sleep 30 >/dev/null 2>&1 & wait`,
	check: func(p *Pass) {
		for _, m := range p.Marks {
			if m.Rule != "SG2007" || !m.LeavesJob() {
				continue
			}
			msg := "`" + m.What + "` needs job control, which a non-interactive shell does not have: it fails and the job is left as it was; use wait"
			if m.What == "set -m" {
				msg = "`set -m` turns on job control: every later background job gets its own process group, out of reach of a group kill; remove it and manage jobs with wait and kill"
			}
			p.Report(m.Start, m.End, msg)
		}
	},
}
