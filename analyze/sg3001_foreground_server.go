package analyze

import "strings"

// ForegroundServer advises on a known server or watcher run in the
// foreground: the command never finishes, so the caller's tool call only
// ends at its timeout.
var ForegroundServer = register(&Rule{
	ID:       "SG3001",
	Name:     "foreground-server",
	Severity: Info,
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
	check: func(p *pass) {
		for _, c := range p.calls {
			if c.async {
				continue
			}
			what := endlessKind(c.res) // (followers.go)
			if what == "" {
				what = fileServerKind(c.res, filesAt(p.cfg.files, p.src, c.start)) // (servers_file.go)
			}
			if what == "" && p.cfg.servers[c.res.name] {
				what = "(a server, by .shguardrc)"
			}
			if strings.HasPrefix(what, "(may not end") {
				p.report(c.start, c.end,
					p.snippet(c.start, c.end)+" "+what+": if it serves, in the foreground it holds the tool call until its timeout; start it as a managed background job and poll its log")
			} else if what != "" && daemonizes(c.res) == "" {
				p.report(c.start, c.end,
					p.snippet(c.start, c.end)+" "+what+" runs until stopped: in the foreground it holds the tool call until its timeout; start it as a managed background job and poll its log")
			}
		}
		for _, m := range p.marks {
			if m.rule == "SG3001" { // loops and waits that never end (walk_endless.go)
				p.report(m.start, m.end, p.snippet(m.start, m.end)+" "+m.what+": in the foreground it holds the tool call until its timeout")
			}
		}
	},
})

// serverKind says what kind of never-ending program the command is, or "".
func serverKind(r resolved) string {
	if r.kind&kServer == 0 || r.timeout {
		return "" // under timeout it ends by itself
	}
	if inner, ok := runnerInner(r); ok {
		return serverKind(inner) // uv run uvicorn…, bundle exec rails s
	}
	if kind := buildGoal(r); kind != "" {
		return kind
	}
	args := argvOf(r)
	has := args.has
	first := func() string {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				return a
			}
		}
		return ""
	}
	script := func() string { // npm run X, yarn X, pnpm X, bun run X
		for i, a := range args {
			if a == "run" || a == "run-script" {
				if i+1 < len(args) {
					return args[i+1]
				}
				return ""
			}
		}
		return first()
	}
	devScript := func(s string) bool {
		switch s {
		case "dev", "start", "serve", "server", "watch", "preview", "develop", "storybook", "start:dev", "dev:server":
			return true
		}
		return false
	}
	switch r.name {
	case "npm", "yarn", "pnpm", "bun":
		if devScript(script()) {
			return "(a dev server)"
		}
	case "make", "gmake", "rake", "invoke", "inv":
		// `make dev`, `rake serve`, `invoke server`: the targets
		// and tasks npm's dev scripts are named after run one too.
		for _, t := range taskNames(r) {
			if devScript(t) {
				return "(a dev server, by its target's name)"
			}
		}
	case "npx", "pnpx", "bunx":
		switch first() {
		case "vite", "next", "nodemon", "http-server", "serve", "live-server", "webpack-dev-server", "tsc", "wrangler", "astro":
			if first() == "tsc" && !has("-w", "--watch") {
				return ""
			}
			if (first() == "next" || first() == "astro") && !strings.Contains(strings.Join(args, " "), " dev") && !strings.Contains(strings.Join(args, " "), " start") {
				return ""
			}
			if first() == "vite" && (has("build") || has("--version")) {
				return ""
			}
			return "(a dev server or watcher)"
		}
	case "vite":
		// `vite [root]`, dev, serve and preview serve; first() cannot tell
		// an option's value (`--port 3000`) from a root, so only the
		// subcommands that end are ruled out.
		if f := first(); f != "build" && f != "optimize" && !has("--version", "-v", "--help", "-h") {
			return "(a dev server)"
		}
	case "next", "astro", "nuxt", "remix":
		if first() == "dev" || first() == "start" {
			return "(a dev server)"
		}
	case "nodemon", "http-server", "live-server", "webpack-dev-server", "json-server", "redis-server", "mongod", "postgres", "uvicorn", "gunicorn", "hypercorn", "daphne", "caddy":
		if has("--version", "-v", "-h", "--help") {
			return ""
		}
		return "(a server)"
	case "python", "python3", "python2":
		for i, a := range args {
			if a == "-m" && i+1 < len(args) {
				switch args[i+1] {
				case "http.server", "SimpleHTTPServer", "uvicorn", "flask", "gunicorn", "streamlit", "jupyter", "notebook", "django":
					return "(a server)"
				}
			}
			if strings.HasSuffix(a, "manage.py") && i+1 < len(args) && args[i+1] == "runserver" {
				return "(a server)"
			}
		}
	case "flask":
		if first() == "run" {
			return "(a server)"
		}
	case "rails":
		if first() == "s" || first() == "server" {
			return "(a server)"
		}
	case "php":
		if has("-S") || first() == "artisan" && (has("serve") || has("octane:start")) {
			return "(a server)"
		}
	case "manage.py":
		if has("runserver") {
			return "(a server)"
		}
	case "streamlit", "gradio", "symfony", "wrangler", "air", "firebase":
		if f := first(); r.name == "air" || f == "run" || f == "serve" || f == "server:start" || f == "dev" || f == "emulators:start" {
			return "(a server)"
		}
	case "deno":
		if first() == "task" && devScript(script2(args)) || has("--watch") {
			return "(a dev server or watcher)"
		}
	case "dotnet":
		if first() == "watch" {
			return "(a watcher)"
		}
	case "hugo", "jekyll", "mkdocs", "ng", "ember":
		if f := first(); f == "server" || f == "serve" {
			return "(a server)"
		}
	case "tail":
		if has("-f", "-F", "--follow") {
			return "(a follower)"
		}
	case "journalctl":
		if has("-f", "--follow") {
			return "(a follower)"
		}
	case "kubectl":
		if first() == "port-forward" || (first() == "logs" && has("-f", "--follow")) {
			return "(a follower)"
		}
	case "docker", "podman":
		s := strings.Join(args, " ")
		if (first() == "compose" && strings.Contains(s, " up") || first() == "logs" && has("-f", "--follow")) && !has("-d", "--detach") {
			return "(runs until stopped)"
		}
	case "docker-compose":
		if first() == "up" && !has("-d", "--detach") {
			return "(runs until stopped)"
		}
	case "watch", "entr", "watchexec", "inotifywait":
		if r.name == "inotifywait" && !has("-m", "--monitor") {
			return ""
		}
		return "(a watcher)"
	case "tsc", "webpack", "jest", "vitest":
		if has("-w", "--watch", "--watchAll") {
			return "(a watcher)"
		}
		if r.name == "webpack" && first() == "serve" {
			return "(a dev server)"
		}
	case "cargo":
		if first() == "watch" {
			return "(a watcher)"
		}
	case "runsvdir", "runsv", "supervise", "svscan":
		return "(a process supervisor)"
	case "supervisord":
		if has("-n", "--nodaemon") {
			return "(a process supervisor)"
		}
	case "foreman", "honcho", "overmind":
		if f := first(); f == "start" || r.name == "overmind" && f == "s" {
			return "(a Procfile runner)"
		}
	case "Xvfb", "Xvnc", "Xephyr":
		return "(an X server)"
	case "ping":
		if !has("-c", "-w") {
			return "(runs until stopped)"
		}
	case "yes":
		return "(runs until stopped)"
	case "sleep":
		if first() == "infinity" || first() == "inf" {
			return "(runs until stopped)"
		}
	}
	return ""
}

// taskNames are the targets or tasks a task runner is asked for: its
// operands that are no option, option value (make -C dir -f file -j 4) or
// variable assignment (make PORT=8080 dev), each part of a rake
// namespace (server:start) and without rake's arguments (serve[4000]).
func taskNames(r resolved) []string {
	var names []string
	args := argvOf(r)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-f" || a == "-I" || a == "-o" || a == "-W" || a == "-r" || a == "-R" || a == "-e" || a == "-c":
			i++ // the option's value
		case (a == "-j" || a == "-l") && i+1 < len(args) && isDigits(args[i+1]):
			i++
		case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
		default:
			a, _, _ = strings.Cut(a, "[")
			names = append(names, strings.Split(a, ":")...)
		}
	}
	return names
}

// serverNames are the programs serverKind knows something about (and
// the runners and build tools of servers.go).
var serverNames = setOf(`npm yarn pnpm bun npx pnpx bunx vite next astro nuxt remix nodemon
http-server live-server webpack-dev-server json-server redis-server mongod postgres uvicorn
gunicorn hypercorn daphne caddy python python3 python2 flask rails php hugo jekyll mkdocs ng
ember tail journalctl kubectl docker podman docker-compose watch entr watchexec inotifywait
tsc webpack jest vitest cargo ping yes sleep manage.py streamlit gradio symfony wrangler air
firebase deno dotnet uv poetry pipenv pdm hatch rye bundle mvn mvnw gradle gradlew sbt lein
make gmake rake invoke inv
runsvdir runsv supervise svscan supervisord foreman honcho overmind Xvfb Xvnc Xephyr`)
