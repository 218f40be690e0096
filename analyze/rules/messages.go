package rules

import (
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/analyze/walk"
)

// held names the descriptors of a job that someone waits on for EOF. The
// common answers are constants: a message is made for every finding.
func held(t *fdtable.Table) string {
	out, errs := holdsFd(t, 1), holdsFd(t, 2)
	others := false
	for fd := 3; fd < len(t); fd++ {
		others = others || holdsFd(t, fd)
	}
	switch {
	case others:
	case out && errs:
		return "stdout and stderr"
	case out:
		return "stdout"
	case errs:
		return "stderr"
	default:
		return ""
	}
	var names []string
	for fd := 1; fd < len(t); fd++ {
		if !holdsFd(t, fd) {
			continue
		}
		switch fd {
		case 1:
			names = append(names, "stdout")
		case 2:
			names = append(names, "stderr")
		case fdtable.Named:
			names = append(names, "{var} descriptor")
		default:
			names = append(names, "fd "+string(rune('0'+fd)))
		}
	}
	return strings.Join(names, " and ")
}

func holdsFd(t *fdtable.Table, fd int) bool {
	return t[fd] == fdtable.TCaller || t[fd] == fdtable.TBlock
}

// quoted shows a job's source in a message.
func (p *Pass) quoted(j *walk.Job) string { return p.snippet(j.Start, j.End) }

// snippet is the source between two outer offsets as a message shows it:
// in backquotes, whitespace runs collapsed, cut to 60 bytes. Built in one
// allocation: messages are made for every finding.
func (p *Pass) snippet(start, end int) string {
	if start < 0 || end > len(p.Src) || start > end {
		return "``"
	}
	const limit = 60
	var b strings.Builder
	b.Grow(min(end-start, limit+1) + 2) // at most 58 bytes and "..."
	b.WriteByte('`')
	// Copy runs of non-blank bytes whole, one space between runs: the
	// snippet of every finding passes through here.
	n, src := 0, p.Src[start:end]
	for {
		i := 0
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i == len(src) {
			break
		}
		if n >= limit-3 {
			b.WriteString("...")
			break
		}
		if i > 0 && n > 0 {
			b.WriteByte(' ')
			n++
		}
		src = src[i:]
		k, room := 0, max(1, limit-3-n)
		for k < len(src) && k <= room && !isSpace(src[k]) {
			k++
		}
		if k > room {
			b.Write(src[:room])
			b.WriteString("...")
			break
		}
		b.Write(src[:k])
		n += k
		src = src[k:]
	}
	b.WriteByte('`')
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// daemonAdvice is the advice for a daemon (see daemons.go), which no
// $! names.
const daemonAdvice = "give it a log file of its own (`pg_ctl -l FILE`, `--log-file`) and stop it before the command ends (`pg_ctl stop`, `redis-cli shutdown`, `nginx -s stop`, `ssh-agent -k`)"

const manageAdvice = "wait for it (`wait $!`), stop it when done (`kill $!`), or run it as a managed job (`shexec --background`, or the agent's run_in_background)"

// advice is manageAdvice, and a word about the kill or wait a script has
// for the job when it may not run.
func advice(j *walk.Job) string {
	if j.Daemon != "" {
		return daemonAdvice
	}
	if j.SubshellGone {
		return outlivedKillAdvice(j)
	}
	if j.WdLeft {
		return "bound it with `timeout N` instead: the watchdog's kill of $$, firing while it runs, ends only the shell waiting for it, which leaves it running with what it was given"
	}
	if j.KilledLate {
		return manageAdvice + "; the watchdog that kills it does so only once its delay is over, after the shell exited"
	}
	if j.CutLeft {
		return "let the timeout reach it: its signal ended only the shell waiting for it, which leaves it running; without --foreground timeout signals its whole process group, and a program the string ends with (`exec ./server`) is the process it signals"
	}
	if j.RunsChildren && j.Kind == walk.JobSimple && len(j.Prog) > 0 {
		// `kill $!` would not stop it (npm, make, go run, xargs…)
		return "wait for it (`wait $!`), start it with `setsid` and stop its whole process group when done (`kill -- -$!`), or run it as a managed job (`shexec --background`, or the agent's run_in_background): a `kill $!` " + runnerKilled(j)
	}
	if j.CondEnd {
		return manageAdvice + "; the kill or wait it has runs only if the command before its && or || goes that way: put it after `;`, or in `trap '…' EXIT`"
	}
	return manageAdvice
}

// outlivedKillAdvice is the advice for a job whose kill ended only its
// own process, a subshell or a program that runs its work as a child
// (npm's script shell, go run, xargs), while what it was running goes on.
// A kill of the process group reaches them all; `setsid` gives a job a
// group of its own in all four shells, where `set -m` fails in zsh -c and
// leaves dash's jobs in the shell's group (measured with npm run).
func outlivedKillAdvice(j *walk.Job) string {
	what := "ends its subshell, not the program running under it"
	if j.Kind == walk.JobSimple && len(j.Prog) > 0 {
		what = runnerKilled(j)
	}
	return "start it with `setsid` and stop its whole process group (`kill -- -$!`), or run it as a managed job (`shexec --background`, or the agent's run_in_background): the kill it has " + what
}

// runnerKilled says what the kill of a job's program that runs its work
// as a child ends, and what it does not: the runner itself (`bundle exec
// rake` is rake: see execRunner) and the shell it passes the signal to,
// for npm's script and make's recipe (see runners_tasks.go).
func runnerKilled(j *walk.Job) string {
	words := j.Prog
	if j.Runner != nil {
		words = j.Runner
	}
	r := knowledge.Resolve(words)
	if inner, ok := knowledge.ExecRunner(r); ok {
		r = inner
	}
	name := r.Name
	if name == "" {
		name = knowledge.Value(words[0])
	}
	switch {
	case j.ChildDeep && (name == "make" || name == "gmake"):
		return "ends `" + name + "`, which passes it on to its recipe's shell (a line like `cd web && ./server` runs under /bin/sh -c) or to npm, not to the program running under them"
	case j.ChildDeep && knowledge.TaskRunner(r):
		return "ends `" + name + "` alone, not the program its task runs under it"
	case j.ChildDeep:
		return "ends `" + name + "` and the script shell it passes the signal to, not the program running under it"
	}
	return "ends `" + name + "`, not the program running under it"
}
