package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A shell behind a terminal of its own: util-linux `script -c CMD` runs
// `$SHELL -c CMD` as the leader of a new session whose controlling
// terminal is a pty, with stdin, stdout and stderr on it (script copies
// what the pty prints to its own stdout). The shell's jobs hold the pty,
// not the caller's output, and script ends when the shell does, however
// long they run. The shell's exit then hangs the terminal up: the kernel
// sends SIGHUP to the terminal's foreground process group, which is the
// shell's own (a shell without job control starts its jobs in it), so
// every job dies with it (`disown` does not help), except those that
// ignore SIGHUP (nohup, `trap '' HUP` before the job) or left the session
// (setsid). Checked with util-linux 2.38: `script -qc 'server & sleep 1'
// /dev/null` leaves nothing, the same with `nohup server` leaks it, and
// neither holds the caller.

// scriptArgOpts are script's short options that take an argument.
const scriptArgOpts = "cEIOBTmo"

// scriptCommand is the -c (--command) string of `script`, or nil.
func scriptCommand(args []*syntax.Word) *syntax.Word {
	for i := 0; i < len(args); i++ {
		v := knowledge.WordLit(args[i])
		switch {
		case v == "--":
			return nil
		case v == "--command" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(v, "--"):
			if !strings.Contains(v, "=") && v != "--timing" && strings.Contains("--echo --log-in --log-out --log-io --log-timing --logging-format --output-limit", v) {
				i++ // the option's argument
			}
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				if strings.IndexByte(scriptArgOpts, v[k]) < 0 {
					continue
				}
				if v[k] != 'c' {
					if k == len(v)-1 {
						i++
					}
					break
				}
				if k < len(v)-1 || i+1 >= len(args) {
					return nil // -c'cmd': not a word of its own
				}
				return args[i+1]
			}
		}
	}
	return nil
}

// terminalShell walks the command string of `script -c` as a bash script
// (the user's $SHELL: unknown, bash the likeliest) on a terminal of its
// own, and hangs that terminal up when it ends (see hangUp).
func (w *walker) terminalShell(r knowledge.Resolved, env fdtable.Table) {
	cmd := scriptCommand(r.Args)
	if cmd == nil || w.nest.depth >= maxNested {
		return
	}
	pty := env
	pty[0], pty[1], pty[2] = fdtable.TFile, fdtable.TFile, fdtable.TFile
	n := len(w.p.Jobs)
	w.nest.starting.leads = true // script makes it a session leader
	w.nested(cmd, dialect.DialectBash, pty, shNested)
	w.nest.starting = nestedStart{}
	w.hangUp(w.p.Jobs[n:])
}

// hangUp ends the jobs that a terminal's hang-up reaches: it signals
// SIGHUP to the whole foreground process group, as GNU timeout's limit
// signals its group (see timeoutKills).
func (w *walker) hangUp(jobs []*Job) {
	w.timeoutKills(jobs, "HUP")
}
