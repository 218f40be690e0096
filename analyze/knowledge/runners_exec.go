package knowledge

// Language launchers that exec the program in their own place, or run it
// in their own process, so that a kill of their pid is a kill of the
// program itself. Measured under `unshare -p -f --mount-proc`, a stand-in
// that becomes `sleep N` started as `RUNNER … >log 2>&1 &` from bash, then
// `kill $!` (TERM), `kill -9` and `kill -INT`; the pid of the program was
// the runner's pid in each:
//
//   - `poetry run CMD` (poetry 1.3, Env.execute: os.execvpe) and `pipenv run
//     CMD` (pipenv 2022.12, os.execve, also for a Pipfile script): what
//     runs is CMD, with its own signal handling.
//   - `bundle exec CMD` (bundler 2.3): a ruby script (rails, rake, jekyll
//     binstubs) is loaded into the bundle process, after bundler put every
//     signal back to its default (so even `kill -INT` of a background
//     `bundle exec rails s` ends it); any other program is exec'd.
//   - `cargo run` (cargo 1.95, exec_replace: execvp once the build is
//     done), `java -jar app.jar`, `mvn` and `gradle` (their launcher
//     scripts end with `exec "$JAVACMD"`), `python3 -m http.server`: the
//     program is the process; a background one ignores INT, as any.
//   - `gradle run` (Gradle 4.4.1, the only one offline): the application
//     is a child of the Gradle daemon, in the daemon's session, not of the
//     client $! names; a TERM or even a KILL of the client closes its
//     connection, on which the daemon cancels the build, and the
//     application was gone within 10 seconds (the daemon too, its cancel
//     having timed out). Judged as ended.
//
// So none of these is a runner of its own; what matters is what they run,
// which execRunner gives for the ones that take a command.

// execRunners are the runners of servers.go's runners that were measured
// to exec their command (or load it in place): they are transparent.
var execRunners = SetOf(`poetry pipenv bundle`)

// ExecRunner is the command an exec'ing runner runs in its own place
// (`bundle exec rake serve` is rake), if r is one.
func ExecRunner(r Resolved) (Resolved, bool) {
	if !execRunners.Has(r.Name) {
		return Resolved{}, false
	}
	return runnerInner(r)
}
