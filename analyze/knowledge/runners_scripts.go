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
// Measured and not among them, each ending its child when TERM ends it:
// pnpm 10, which starts a reaper that kills the process groups of its
// children when pnpm goes away (by TERM or KILL); bun 1.4 (`bun run`,
// bunx), which runs the script's command as its own child; and the
// reloading dev servers nodemon, tsx watch, concurrently, flask run
// --debug, Django's runserver and uvicorn --reload.

// ScriptRunner says whether the resolved command runs its work as a child
// that a kill of the command leaves running (apart), and whether that work
// is a grandchild, under the script shell, where `pkill -P` of the
// command does not reach it either (deep). A runner that execs its
// command (`poetry run npm run dev`) is that command; a task runner (make,
// rake, invoke) leaves what its task file runs (see runners_tasks.go).
// shLeaves asks whether this host's sh leaves a script's last command
// running as its child (dash) rather than exec it in its place: the
// dialect table knows, the caller passes the question in (a seam, as
// mvdan.cc/sh's expand.Config.Env), and it is asked only for the runners
// whose script sh runs (npm, npx, yarn).
func ScriptRunner(r Resolved, shLeaves func() bool) (apart, deep bool) {
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
	switch r.Name {
	case "npm":
		switch firstOperand(ArgvOf(r), "--prefix", "--workspace", "-w") {
		case "run", "run-script", "rum", "urn", "start", "test", "t", "tst", "restart", "exec", "x":
			leaves := shLeaves()
			return leaves, leaves
		}
	case "npx":
		leaves := shLeaves()
		return leaves, leaves
	case "yarn", "yarnpkg":
		switch firstOperand(ArgvOf(r), "--cwd") {
		case "", "install", "add", "remove", "upgrade", "info", "list", "config", "cache",
			"init", "pack", "publish", "version", "versions", "login", "logout", "why",
			"outdated", "audit", "bin", "dir", "link", "unlink", "licenses", "owner", "tag":
			return false, false
		}
		leaves := shLeaves()
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
