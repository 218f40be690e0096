package walk

import (
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A timeout around a simple command (`timeout 5 sh -c '…'`,
// `timeout 10 ./server`): whether it fires in the walked shell or in
// place of it, what its signal reaches, and what it cuts short (see
// walker.call and walk_timeoutcut.go).

// timesOut reports whether the timeout a shell runs under (`timeout 5 sh
// -c '…'`) fires: the commands walked in it since the counts slow and
// bounded ran longer than its literal limit, or for a time nobody knows.
func (w *walker) timesOut(r knowledge.Resolved, slow int, bounded time.Duration) bool {
	return r.Timeout && r.Limit > 0 && (w.slow > slow || w.bounded-bounded >= r.Limit)
}

// timeoutFiresInPlace reports whether s is a timeout that the shell execs
// in place of itself while it leads its process group, and whose command
// outlasts it for sure (`server & timeout 5 sleep 60` as the last command
// of zsh -c). timeout then finds itself already leading a group, the
// shell's, and its signal at the limit reaches every job the shell
// started (checked under zsh and bash, whose earlier `sleep &` job dies
// at the limit). Run in the caller's group, or not exec'd, timeout makes
// a group of its own and the jobs run on.
func (w *walker) timeoutFiresInPlace(s *syntax.Stmt, r knowledge.Resolved) bool {
	if !r.Timeout || r.TimeoutFg || r.Limit == 0 {
		return false
	}
	d, ok := knowledge.SleepFor(r.Args)
	unbounded := r
	unbounded.Timeout = false // a server or watcher, as it would run without timeout
	outlasts := r.Name == "sleep" && ok && d >= r.Limit || knowledge.EndlessKind(unbounded) != ""
	return outlasts && w.leads(s, r)
}

// timeoutKills ends the jobs a command started when its timeout fires.
// GNU timeout runs the command in a process group of its own and, when
// the time is up, signals that whole group: the command's background jobs
// die with it (`timeout 60 sh -c 'server & exec tests'`), except those
// that left the group with setsid or ignore the signal (as background
// jobs do SIGINT and SIGQUIT: see jobsIgnore).
func (w *walker) timeoutKills(jobs []*Job, sig string) {
	if !terminates(sig) || w.jobsIgnore(sig) {
		return
	}
	for _, j := range jobs {
		if !j.Setsid && !j.ignores(sig) {
			w.end(j)
		}
	}
}

// killProgram reports whether the kill r runs is the program, not the
// shell's builtin: named by a path, run by a program wrapper, or by zsh's
// command.
func (w *walker) killProgram(r knowledge.Resolved) bool {
	return strings.Contains(knowledge.WordLit(r.Head), "/") || r.ViaProgram || r.ViaCommand && w.sh.d.CommandSkipsBuiltins
}

// timeoutCuts undoes the waits of the shell a timeout ends (`timeout 60
// sh -c 'server & wait'`) for the jobs its signal does not reach: the wait
// ended with the shell, not with them. A job that left the group (setsid),
// or ignores the signal (background jobs SIGINT and SIGQUIT), runs on, and
// so does every job under --foreground, whose signal (and -k's KILL) goes
// to the shell alone (coreutils timeout.c, cleanup: send_sig(0, sig) only
// when !foreground).
func (w *walker) timeoutCuts(jobs []*Job, r knowledge.Resolved) {
	sig := r.TimeoutSig
	for _, j := range jobs {
		if j.waited && !j.Quick && (r.TimeoutFg || j.Setsid || !terminates(sig) || w.jobsIgnore(sig) || j.ignores(sig)) {
			j.waited = false
		}
	}
}
