package analyze

// SetsidForeground advises on setsid run in the foreground.
var SetsidForeground = register(&Rule{
	ID:       "SG3002",
	Name:     "setsid-foreground",
	Severity: Info,
	Summary:  "setsid in the foreground leaves the process group, and forks away if the shell leads its group",
	Doc: `Run in the foreground, setsid cmd waits for cmd only while the shell is not
a process-group leader. Tools that start the shell in its own group (most
do, to kill it cleanly) make setsid fork and return at once, leaving cmd
holding the output; and a timeout's group kill never reaches cmd. If a new
session is not what you need, drop setsid.`,
	Wrong: `setsid ./build.sh`,
	Right: `./build.sh`,
	check: func(p *pass) {
		for _, m := range p.marks {
			if m.rule == "SG3002" {
				p.report(m.start, m.end,
					p.snippet(m.start, m.end)+" leaves the process group: a timeout that kills the group misses it, and if the shell leads its own group setsid forks and returns at once; drop setsid unless you need a new session")
			}
		}
	},
})
