package knowledge

// Task runners run what a file the command does not show says (a
// Makefile's recipe, a Rakefile's or tasks.py's task) as their child, and
// a kill of their pid leaves that running in most real cases. Measured
// under `unshare -p -f --mount-proc`, `RUNNER … >log 2>&1 &` from bash,
// then `kill $!`, counting the `sleep N` stand-ins left:
//
//   - GNU make 4.3 runs a recipe line with none of the shell's characters
//     (#;"*?[]&|<>(){}$`^~!), no `=` in its first word and no shell builtin
//     first as its own child, execvp'd; any other under `/bin/sh -c`. On
//     TERM it sends TERM to each child and waits for them
//     (fatal_error_signal in commands.c: "A termination signal won't be
//     sent to the entire process group, but it means we want to kill the
//     children"), also under -j and through a sub-make. So `make dev &
//     … kill $!` ends a recipe of one plain command (`./bin/server`,
//     `uvicorn app:app --reload`, `$(MAKE) serve`) and leaves the server
//     where the child is dash (`cd web && ./server`, `. venv/bin/activate
//     && flask run`, `ENV=dev ./server`, a redirection, a quote), npm (`npm
//     run dev`: npm passes TERM to its script's dash) or go run (`go run
//     ./cmd/server`). Of nine recipes taken from real Makefiles' dev, run
//     and serve targets six left the server and three ended it, and most
//     such targets the search tool found are `npm …`, `go run …` or `cd …
//     &&` lines. A KILL leaves every recipe's command; a background make
//     ignores INT, and on HUP it waits for its children without passing
//     the signal on, so both leave make and the server. make is judged as
//     npm is: the kill ends it and the shell it passes the signal to.
//   - rake 13 (and `bundle exec rake`, the same process) runs a task's `sh`
//     and `system` as its child (without a shell for a plain command,
//     under /bin/sh -c otherwise) and dies of TERM, KILL or HUP alone,
//     leaving it; only a task that serves in rake's own process or
//     `exec`s its command ends with it.
//   - invoke 2.0 runs `c.run(…)` under `/bin/bash -c`, which execs the
//     command, as its child, and dies of TERM alone (python's default),
//     leaving it. With `pty=True` the command is in a session of its own
//     on invoke's pty and dies of the HUP when invoke goes.
//
// Whether `pkill -P $!` reaches the server is up to the same file
// (make's and rake's shell for a line with `&&`, npm in the recipe), so
// none of them is taken to be reached by it.

// TaskRunner reports whether r is make, rake or invoke running a target
// or task: anything but a look at its version, help, task list or what it
// would run, which ends at once.
func TaskRunner(r Resolved) bool {
	args := ArgvOf(r)
	switch r.Name {
	case "make", "gmake":
		return !args.Has("-v", "--version", "-h", "--help", "-n", "--just-print", "--dry-run", "--recon", "-q", "--question")
	case "rake":
		return !args.Has("-V", "--version", "-h", "-H", "--help", "-T", "--tasks", "-D", "--describe", "-P", "--prereqs", "-W", "--where", "-n", "--dry-run")
	case "invoke", "inv":
		return !args.Has("-V", "--version", "-h", "--help", "-l", "--list")
	}
	return false
}
