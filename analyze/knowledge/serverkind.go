package knowledge

import (
	"strings"
)

// TaskNames are the targets or tasks a task runner is asked for: its
// operands that are no option, option value (make -C dir -f file -j 4) or
// variable assignment (make PORT=8080 dev), each part of a rake
// namespace (server:start) and without rake's arguments (serve[4000]).
func TaskNames(r Resolved) []string {
	var names []string
	args := ArgvOf(r)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-f" || a == "-I" || a == "-o" || a == "-W" || a == "-r" || a == "-R" || a == "-e" || a == "-c":
			i++ // the option's value
		case (a == "-j" || a == "-l") && i+1 < len(args) && IsDigits(args[i+1]):
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
var serverNames = SetOf(`npm yarn pnpm bun npx pnpx bunx vite next astro nuxt remix nodemon
http-server live-server webpack-dev-server json-server redis-server mongod postgres uvicorn
gunicorn hypercorn daphne caddy python python3 python2 flask rails php hugo jekyll mkdocs ng
ember tail journalctl kubectl docker podman docker-compose watch entr watchexec inotifywait
tsc webpack jest vitest cargo ping yes sleep manage.py streamlit gradio symfony wrangler air
firebase deno dotnet uv poetry pipenv pdm hatch rye bundle mvn mvnw gradle gradlew sbt lein
make gmake rake invoke inv
runsvdir runsv supervise svscan supervisord foreman honcho overmind Xvfb Xvnc Xephyr`)

// fileRunnerNames are the runtimes fileServerKind reads the scripts of
// (the walk records their calls for SG3001: see progKinds).
var fileRunnerNames = SetOf(`node nodejs ts-node tsx bun deno python python3 python2 pypy3 ruby php go npm yarn pnpm`)

// serverKind says what kind of never-ending program the command is, or "".
func serverKind(r Resolved) string {
	if r.Kind&KServer == 0 || r.Timeout {
		return "" // under timeout it ends by itself
	}
	if inner, ok := runnerInner(r); ok {
		return serverKind(inner) // uv run uvicorn…, bundle exec rails s
	}
	if kind := buildGoal(r); kind != "" {
		return kind
	}
	args := ArgvOf(r)
	has := args.Has
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
	switch r.Name {
	case "npm", "yarn", "pnpm", "bun":
		if devScript(script()) {
			return "(a dev server)"
		}
	case "make", "gmake", "rake", "invoke", "inv":
		// `make dev`, `rake serve`, `invoke server`: the targets
		// and tasks npm's dev scripts are named after run one too.
		for _, t := range TaskNames(r) {
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
		if f := first(); r.Name == "air" || f == "run" || f == "serve" || f == "server:start" || f == "dev" || f == "emulators:start" {
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
		if r.Name == "inotifywait" && !has("-m", "--monitor") {
			return ""
		}
		return "(a watcher)"
	case "tsc", "webpack", "jest", "vitest":
		if has("-w", "--watch", "--watchAll") {
			return "(a watcher)"
		}
		if r.Name == "webpack" && first() == "serve" {
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
		if f := first(); f == "start" || r.Name == "overmind" && f == "s" {
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
