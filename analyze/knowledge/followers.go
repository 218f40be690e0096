package knowledge

import "strings"

// Programs that never end by themselves beyond the dev servers of
// serverKind: log followers, which print what a service logs for as long
// as it runs (`pm2 logs`, `serverless logs -f api --tail`, `docker compose
// logs -f`, `heroku logs --tail`, `stern api`), stream viewers (`docker
// stats`, `kubectl get pods -w`) and file watchers that rebuild on change
// (`sass --watch`, `tailwindcss -w`, `fswatch`, `chokidar … -c`). In the
// foreground each holds the tool call until its timeout (SG3001), the
// hook moves it to the agent's background mode. Each entry says what
// makes the command follow: a subcommand, a flag, or nothing (it always
// does), and what makes it stop (`pm2 logs --nostream`, `docker stats
// --no-stream`, `stern --no-follow`, `fly logs --no-tail`). Read from the
// programs' own --help and documentation (pm2 6, serverless 4, docker 27
// and compose 2, heroku 10, stern 1.30, flyctl, aws-cli 2, kubectl 1.31,
// sass 1.x, tailwindcss 3 and 4, esbuild, rollup 4, parcel 2, fswatch,
// chokidar-cli, onchange, skaffold, tilt); pm2, serverless, sass,
// tailwindcss, esbuild, rollup, chokidar-cli and onchange measured with
// the npm packages (see corpus p36-*-follow entries).

// follower is one program of the table: sub, the subcommands (after the
// program's options) that follow, "" for the program itself; on, the
// flags that make it follow, none meaning it always does; off, the flags
// that make it print once and end.
type follower struct {
	sub     []string
	on, off []string
	what    string
}

var followers = table[[]follower]{
	{"pm2", []follower{{sub: []string{"logs", "log", "monit", "dash", "dashboard"}, off: []string{"--nostream"}, what: "(a log follower)"}}},
	{"serverless", []follower{{sub: []string{"logs"}, on: []string{"-t", "--tail"}, what: "(a log follower)"}, {sub: []string{"dev", "offline"}, what: "(a dev server)"}}},
	{"sls", []follower{{sub: []string{"logs"}, on: []string{"-t", "--tail"}, what: "(a log follower)"}, {sub: []string{"dev", "offline"}, what: "(a dev server)"}}},
	{"heroku", []follower{{sub: []string{"logs"}, on: []string{"-t", "--tail"}, what: "(a log follower)"}, {sub: []string{"local"}, what: "(a Procfile runner)"}}},
	{"stern", []follower{{off: []string{"--no-follow"}, what: "(a log follower)"}}},
	{"kail", []follower{{what: "(a log follower)"}}},
	{"fly", []follower{{sub: []string{"logs"}, off: []string{"--no-tail", "-n"}, what: "(a log follower)"}}},
	{"flyctl", []follower{{sub: []string{"logs"}, off: []string{"--no-tail", "-n"}, what: "(a log follower)"}}},
	{"railway", []follower{{sub: []string{"logs"}, what: "(a log follower)"}}},
	{"vercel", []follower{{sub: []string{"logs"}, on: []string{"-f", "--follow"}, what: "(a log follower)"}, {sub: []string{"dev"}, what: "(a dev server)"}}},
	{"netlify", []follower{{sub: []string{"dev", "serve"}, what: "(a dev server)"}, {sub: []string{"logs:function", "logs"}, what: "(a log follower)"}}},
	{"aws", []follower{{sub: []string{"tail"}, on: []string{"--follow"}, what: "(a log follower)"}}},
	{"az", []follower{{sub: []string{"tail"}, what: "(a log follower)"}}},
	{"gcloud", []follower{{sub: []string{"tail"}, what: "(a log follower)"}}},
	{"docker-compose", []follower{{sub: []string{"logs"}, on: []string{"-f", "--follow"}, what: "(a log follower)"},
		{sub: []string{"events"}, what: "(an event stream)"}}},
	{"fswatch", []follower{{off: []string{"-1", "--one-event"}, what: "(a watcher)"}}},
	{"chokidar", []follower{{what: "(a watcher)"}}},
	{"onchange", []follower{{what: "(a watcher)"}}},
	{"nodemon", []follower{{what: "(a watcher)"}}},
	{"reflex", []follower{{what: "(a watcher)"}}},
	{"sass", []follower{{on: []string{"--watch", "-w"}, what: "(a watcher)"}}},
	{"tailwindcss", []follower{{on: []string{"--watch", "-w"}, what: "(a watcher)"}}},
	{"esbuild", []follower{{on: []string{"--watch", "--serve"}, what: "(a watcher)"}}},
	{"rollup", []follower{{on: []string{"-w", "--watch"}, what: "(a watcher)"}}},
	{"parcel", []follower{{sub: []string{"watch", "serve"}, what: "(a watcher)"}}},
	{"gulp", []follower{{sub: []string{"watch", "serve", "dev"}, what: "(a watcher)"}}},
	{"grunt", []follower{{sub: []string{"watch", "serve", "server"}, what: "(a watcher)"}}},
	{"skaffold", []follower{{sub: []string{"dev", "debug"}, what: "(a dev loop)"}}},
	{"tilt", []follower{{sub: []string{"up"}, what: "(a dev loop)"}}},
	{"ng", []follower{{sub: []string{"test"}, off: []string{"--watch=false", "--no-watch", "--single-run"}, what: "(a watcher)"}}},
	{"karma", []follower{{sub: []string{"start"}, off: []string{"--single-run"}, what: "(a watcher)"}}},
	{"vite-node", []follower{{on: []string{"-w", "--watch"}, what: "(a watcher)"}}},
	{"tsx", []follower{{sub: []string{"watch"}, what: "(a watcher)"}}},
	{"ts-node-dev", []follower{{what: "(a watcher)"}}},
	{"node", []follower{{on: []string{"--watch", "--watch-path"}, what: "(a watcher)"}}},
	{"bun", []follower{{on: []string{"--watch", "--hot"}, what: "(a watcher)"}}},
	{"deno", []follower{{sub: []string{"serve"}, what: "(a server)"}}},
	{"adb", []follower{{sub: []string{"logcat"}, off: []string{"-d"}, what: "(a log follower)"}}},
	{"dmesg", []follower{{on: []string{"-w", "--follow", "-W", "--follow-new"}, what: "(a follower)"}}},
	{"watchman-wait", []follower{{what: "(a watcher)"}}},
}

// dockerFollows: docker (and podman) subcommands that never end: `logs -f`
// of a container or of compose (`docker compose logs -f`), `events`,
// `stats` without --no-stream, `attach`, `compose watch`, `compose up`
// without -d (serverKind's).
func dockerFollows(args Argv) string {
	first, rest := FirstWord(args)
	if first == "compose" || first == "container" {
		first, rest = FirstWord(rest)
	}
	switch first {
	case "logs":
		if rest.Has("-f", "--follow") {
			return "(a log follower)"
		}
	case "events", "attach", "watch":
		return "(an event stream)"
	case "stats":
		if !rest.Has("--no-stream") {
			return "(a stream)"
		}
	}
	return ""
}

// followerKind says what kind of never-ending program a command is by the
// table above, or "".
func followerKind(r Resolved) string {
	if r.Timeout {
		return "" // under timeout it ends by itself
	}
	args := ArgvOf(r)
	switch r.Name {
	case "docker", "podman":
		return dockerFollows(args)
	case "tail":
		if args.Has("-f", "-F", "--follow") || followCluster(args) {
			return "(a follower)"
		}
		return ""
	case "kubectl", "oc":
		first, rest := FirstWord(args)
		switch {
		case first == "logs" && (rest.Has("-f", "--follow") || followCluster(rest)),
			first == "get" && rest.Has("-w", "--watch", "--watch-only"),
			first == "attach", first == "port-forward", first == "proxy", first == "events" && rest.Has("-w", "--watch"):
			return "(a follower)"
		}
		return ""
	}
	fs, _ := followers.of(r.Name)
	for _, f := range fs {
		if len(f.sub) > 0 && !hasSub(args, f.sub) {
			continue
		}
		if len(f.off) > 0 && args.Has(f.off...) {
			continue
		}
		if len(f.on) > 0 && !args.Has(f.on...) {
			continue
		}
		return f.what
	}
	return ""
}

// FirstWord splits off the first argument that is no option.
func FirstWord(args Argv) (string, Argv) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a, args[i+1:]
		}
	}
	return "", nil
}

// hasSub reports whether one of subs is among the arguments that are no
// option (`aws logs tail`, `serverless logs -f api`, `pm2 logs api`).
func hasSub(args Argv, subs []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		for _, s := range subs {
			if a == s {
				return true
			}
		}
	}
	return false
}

// followerNames are the programs followerKind knows, for resolve's
// kinds (they are servers to the walk: see progKinds).
var followerNames = SetOf(`pm2 serverless sls heroku stern kail fly flyctl railway vercel netlify aws az gcloud
docker-compose fswatch chokidar onchange nodemon reflex sass tailwindcss esbuild
rollup parcel gulp grunt skaffold tilt ng karma vite-node tsx ts-node-dev node bun deno adb dmesg
watchman-wait docker podman tail kubectl oc`)

// EndlessKind says what kind of never-ending program a command is: a
// server or watcher serverKind knows, or a follower of the table above.
func EndlessKind(r Resolved) string {
	if k := serverKind(r); k != "" {
		return k
	}
	if inner, ok := runnerInner(r); ok {
		return followerKind(inner) // pnpm exec tailwindcss -w, uv run …
	}
	if r.Name == "npx" || r.Name == "pnpx" || r.Name == "bunx" {
		for i, a := range r.Args {
			if v := WordLit(a); !strings.HasPrefix(v, "-") {
				return followerKind(Resolve(r.Args[i:])) // npx tailwindcss -w
			}
		}
	}
	return followerKind(r)
}
