package rules

import (
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/analyze/walk"
)

// ForegroundServer advises on a known server or watcher run in the
// foreground: the command never finishes, so the caller's tool call only
// ends at its timeout.
var ForegroundServer = Rule{
	ID:       "SG3001",
	Name:     "foreground-server",
	Severity: diag.Info,
	Summary:  "A server or watcher in the foreground never returns: run it as a managed background job",
	Doc: `Dev servers, file watchers and followers (npm run dev, make dev, vite, python -m
http.server, tail -f, kubectl logs -f, docker compose up, pm2 logs, heroku
logs --tail, sass --watch...) run until they are stopped. So do a server a
script file starts (node server.js, python app.py, go run ./cmd/server, a
package.json script), which shguard reads where the command runs (the hook
and the linter know the directory; a file it cannot read that is named like
a server may not end), a wait for such a job (./server & wait), and a loop
that has no way out (while true without a break, or dash's until [[ ... ]],
whose [[ is not found every round). In the foreground they hold the tool
call until its timeout. Start them as managed background jobs and poll
their logs.`,
	Wrong: `npm run dev`,
	Right: `npm run build`,
	check: func(p *Pass) {
		for _, c := range p.Calls {
			if c.Async {
				continue
			}
			what := knowledge.EndlessKind(c.Res) // (followers.go)
			if what == "" {
				what = walk.FileServerKind(c.Res, walk.FilesAt(p.Cfg.Files, p.Src, c.Start)) // (servers_file.go)
			}
			if what == "" && p.Cfg.Servers[c.Res.Name] {
				what = "(a server, by .shguardrc)"
			}
			if strings.HasPrefix(what, "(may not end") {
				p.Report(c.Start, c.End,
					p.snippet(c.Start, c.End)+" "+what+": if it serves, in the foreground it holds the tool call until its timeout; start it as a managed background job and poll its log")
			} else if what != "" && knowledge.Daemonizes(c.Res) == "" {
				p.Report(c.Start, c.End,
					p.snippet(c.Start, c.End)+" "+what+" runs until stopped: in the foreground it holds the tool call until its timeout; start it as a managed background job and poll its log")
			}
		}
		for _, m := range p.Marks {
			if m.Rule == "SG3001" { // loops and waits that never end (walk_endless.go)
				p.Report(m.Start, m.End, p.snippet(m.Start, m.End)+" "+m.What+": in the foreground it holds the tool call until its timeout")
			}
		}
	},
}
