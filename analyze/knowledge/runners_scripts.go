package knowledge

// Package managers and `go run` start the work they are asked for as a
// child of their own, and a kill of their pid does not end it:
//
//   - npm (run, start, test, exec), npx and yarn run a package script as
//     `/bin/sh -c SCRIPT` and pass TERM and INT on to that shell
//     (@npmcli/run-script's signal-manager.js). Where /bin/sh is dash, as
//     on Debian and Ubuntu, the shell does not exec the script's command
//     in its place, so the signal ends the shell and the server it was
//     waiting for runs on, re-parented to init: `npm run dev >log 2>&1 &
//     sleep 5; kill $!` leaves the dev server. Where /bin/sh is bash
//     (macOS, Fedora) the script's last command replaces the shell and
//     dies; shguard judges as dash does, the case that leaks. A KILL is
//     passed on nowhere. Measured with npm 11.19 and yarn 1.22 on dash
//     0.5.12.
//   - `go run` builds the program and runs it as its child; it lets TERM
//     end itself and passes nothing on (cmd/go handles only interrupt and
//     quit), so the program runs on.
//
// The script shell is this host's /bin/sh, as `sh -c` is judged with it
// (see shDialect): where it is bash, npm, npx and yarn are taken to end
// their script's command, which a script of more than one (`tsc && vite`
// in bash 3.2) does not do.
//
//   - pnpm 10 runs a script as npm does, under `sh -c`, and a TERM to pnpm
//     leaves the script's command: measured with pnpm 10.0.0 and 10.34.9
//     (`pnpm dev` of `node srv.js`: pnpm, then sh, then node, one process
//     group; TERM to pnpm's pid, node still runs 8 s later). An earlier
//     note here had pnpm 10 reap its children's process groups; neither
//     version does where the script's shell is dash.
//
// Measured and not among them, each ending its child when TERM ends it:
// bun 1.4 (`bun run`, bunx; 1.4.5: bun, then node, no shell), which runs
// the script's command as its own child; yarn berry (4.18.1: yarn, then
// node, through its own shell, no sh), which the verdict does not assume
// (`yarn` is judged as yarn 1, the global yarn most machines have, which
// a project's packageManager field may override: not read); cargo run
// (1.95.0), which execs the program it built, as poetry run (1.3.2) execs
// its command; and the reloading dev servers nodemon (3.1.14), tsx
// watch, concurrently (9.2.5, which pipes its commands' output through
// itself: they hold nothing of the caller's), flask run --debug, Django's
// runserver and uvicorn --reload. uv could not be installed here (not in
// Debian 12, PyPI not reachable): uv run is taken to exec its command, as
// poetry run does. Each measured in a PID namespace the same way: the
// runner started as `RUNNER … &` by bash -c (a group leader) with stdout
// and stderr one pipe, its process tree and who holds the pipe listed
// after 5 to 12 s, TERM to $!, survivors listed 3 to 8 s later.

// ScriptRunner says whether the resolved command runs its work as a child
// that a kill of the command leaves running (apart), and whether that work
// is a grandchild, under the script shell, where `pkill -P` of the
// command does not reach it either (deep). A runner that execs its
// command (`poetry run npm run dev`) is that command; a task runner (make,
// rake, invoke) leaves what its task file runs (see runners_tasks.go).
// shLeaves: this host's sh leaves a script's last command running as its
// child (dash) rather than exec it in its place; the dialect table knows
// (the caller asks it), this file only uses the answer.
func ScriptRunner(r Resolved, shLeaves bool) (apart, deep bool) {
	if inner, ok := ExecRunner(r); ok {
		return ScriptRunner(inner, shLeaves)
	}
	if TaskRunner(r) {
		return true, true
	}
	// This host's sh leaves the script's command running where it does
	// not exec it in its place (dash). Where it does (bash on macOS and
	// Fedora), a script of one command, as most are (`vite`, `next dev`),
	// dies of the signal npm passes on.
	leaves := shLeaves
	switch r.Name {
	case "npm":
		switch firstOperand(ArgvOf(r), "--prefix", "--workspace", "-w") {
		case "run", "run-script", "rum", "urn", "start", "test", "t", "tst", "restart", "exec", "x":
			return leaves, leaves
		}
	case "npx":
		return leaves, leaves
	case "yarn", "yarnpkg":
		switch firstOperand(ArgvOf(r), "--cwd") {
		case "", "install", "add", "remove", "upgrade", "info", "list", "config", "cache",
			"init", "pack", "publish", "version", "versions", "login", "logout", "why",
			"outdated", "audit", "bin", "dir", "link", "unlink", "licenses", "owner", "tag":
			return false, false
		}
		return leaves, leaves
	case "pnpm":
		switch firstOperand(ArgvOf(r), "--dir", "-C", "--filter", "-F") {
		case "", "install", "i", "add", "remove", "rm", "update", "up", "list", "ls", "why", "outdated",
			"audit", "store", "config", "init", "publish", "pack", "link", "unlink", "import", "rebuild",
			"prune", "fetch", "env", "setup", "root", "bin", "patch", "patch-commit", "deploy", "licenses":
			return false, false
		}
		return leaves, leaves
	case "go":
		return firstOperand(ArgvOf(r)) == "run", false
	}
	return supervisorLeaves(r)
}

// firstOperand is the first argument that is not an option (nor the value
// of one of the options named in takesValue), or "".
func firstOperand(args Argv, takesValue ...string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case len(a) > 1 && a[0] == '-':
			for _, o := range takesValue {
				if a == o {
					i++
				}
			}
		default:
			return a
		}
	}
	return ""
}
