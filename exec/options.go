//go:build linux || darwin || freebsd

package exec

import (
	"io"
	"os"
	"time"
)

// An Option configures Run.
type Option func(*config)

type config struct {
	shell          string
	shellFlags     []string // before the script; nil means "-c"
	shellArgs      []string // the whole argument list, with no script
	hasShellArgs   bool
	name           string
	hasName        bool
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
	dir            string
	env            []string
	hasEnv         bool
	nonInteractive bool
	timeout, grace time.Duration
	leftovers      LeftoverPolicy
	prepare        func(string) (string, error)
	promote        *promotion
	signals        []os.Signal
	signalCh       <-chan os.Signal
	quiet          time.Duration
	maxDrain       time.Duration
	watchdog       bool
	directOutput   bool
}

// flags are the words before the script.
func (c *config) flags() []string {
	if c.shellFlags == nil {
		return []string{"-c"}
	}
	return c.shellFlags
}

func defaults() config {
	return config{
		shell:     "bash",
		grace:     2 * time.Second,
		leftovers: KillLeftovers,
		quiet:     50 * time.Millisecond,
		maxDrain:  500 * time.Millisecond,
	}
}

// WithShell selects the shell: a name looked up in $PATH or a path. It is
// run as `SHELL -c SCRIPT [NAME [ARGS...]]`, so any POSIX shell works
// (bash, dash, sh, zsh). Default: bash.
func WithShell(shell string) Option { return func(c *config) { c.shell = shell } }

// WithShellFlags sets the words Run puts between the shell's name and the
// script, in place of "-c": the caller's own options as written, ending with
// the one that makes the shell take the next word as its command string
// (["-eu", "-o", "pipefail", "-c"], ["-lc"], ["-c", "-x"]). Promoted jobs
// (WithPromotion) run with the same options.
func WithShellFlags(flags ...string) Option { return func(c *config) { c.shellFlags = flags } }

// WithShellArgs makes Run start the shell as `SHELL ARGS...`, exactly, with
// no command string: a script file (`-e deploy.sh prod`), a script on stdin
// (`-s a b`) or an interactive shell. Run's script argument must then be
// empty; WithArgs, WithShellFlags, WithPrepare and WithPromotion do not
// apply.
func WithShellArgs(args ...string) Option {
	return func(c *config) { c.shellArgs, c.hasShellArgs = args, true }
}

// WithArgs sets $0 to name and $1... to args, like the operands that follow
// the command string of `bash -c`. Without it $0 is the shell's name.
func WithArgs(name string, args ...string) Option {
	return func(c *config) { c.name, c.hasName, c.args = name, true, args }
}

// WithStdin sets the shell's standard input. An *os.File is handed to the
// shell as is (no copy, the shell may seek or see a terminal); any other
// reader is copied through a pipe by a goroutine, which stays blocked in
// Read after Run returns if the reader never ends. Default: /dev/null.
func WithStdin(r io.Reader) Option { return func(c *config) { c.stdin = r } }

// WithStdout and WithStderr set where the shell's output goes. A pipe, a
// socket or any io.Writer that is not an *os.File is fed through a pipe
// owned by Run, so that Run, not the last holder of the pipe, decides when
// the command is over; an *os.File destination receives the bytes with
// splice(2), without a copy through user space. A regular file, a terminal
// or /dev/null is handed to the shell directly: nothing waits for EOF on
// those. When both are the same destination the shell gets one pipe for
// both, which keeps the interleaving of the two streams exact. A pipe
// destination smaller than 1 MiB is grown to 1 MiB (F_SETPIPE_SZ), so
// that streaming output moves in large batches. nil discards. Default:
// nil.
func WithStdout(w io.Writer) Option { return func(c *config) { c.stdout = w } }

// WithStderr: see WithStdout.
func WithStderr(w io.Writer) Option { return func(c *config) { c.stderr = w } }

// WithDir sets the shell's working directory. Default: the caller's.
func WithDir(dir string) Option { return func(c *config) { c.dir = dir } }

// WithEnv sets the shell's environment. Default: os.Environ().
func WithEnv(env []string) Option { return func(c *config) { c.env, c.hasEnv = env, true } }

// NonInteractiveEnv is what WithNonInteractive adds to the environment:
// pagers that print instead of waiting for a key, editors that return at
// once, git that fails instead of prompting for credentials, no colours, and
// apt/dpkg that use defaults instead of asking.
var NonInteractiveEnv = []string{
	"PAGER=cat",
	"GIT_PAGER=cat",
	"GIT_EDITOR=true",
	"EDITOR=true",
	"VISUAL=true",
	"GIT_TERMINAL_PROMPT=0",
	"TERM=dumb",
	"NO_COLOR=1",
	"DEBIAN_FRONTEND=noninteractive",
}

// WithNonInteractive makes the command unable to wait for a human: it sets
// NonInteractiveEnv and reads stdin from /dev/null (overriding WithStdin).
// An agent has no keyboard; a prompt would only burn the timeout.
func WithNonInteractive() Option { return func(c *config) { c.nonInteractive = true } }

// WithTimeout bounds the run. On expiry the shell's process group and every
// process that left it get SIGTERM, then SIGKILL after the grace period, and
// Result.Status is StatusTimeout. Zero (the default) means no limit.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithGrace sets how long processes get between SIGTERM and SIGKILL, on
// timeout, on cancellation and when leftovers are killed. Default: 2s.
func WithGrace(d time.Duration) Option { return func(c *config) { c.grace = d } }

// WithDirectOutput gives the shell the caller's own stdout and stderr when
// they are pipes, instead of pipes of Run's that it copies from: no copy
// hop, so output moves as fast as under bash. The price is prompt return:
// Run can no longer let go of the output while something still holds it,
// so when the shell has exited, every leftover that holds the caller's
// pipe and descends from the run is stopped (SIGTERM, the grace period,
// SIGKILL) before the leftover policy sees the rest; a holder that does not
// descend from the run keeps the caller waiting, as under bash. For
// commands that start no background work (shexec decides by analysing the
// script), where a holder is a daemon nobody asked for.
func WithDirectOutput() Option { return func(c *config) { c.directOutput = true } }

// WithLeftovers sets what happens to processes still alive or still holding
// the output when the shell has exited. Default: KillLeftovers.
func WithLeftovers(p LeftoverPolicy) Option { return func(c *config) { c.leftovers = p } }

// WithPrepare installs a transformation applied to the script before it runs.
// It is the hook for the static planner (package rewrite): a statement such
// as `server &` that would hold the caller's output is rewritten before the
// shell ever sees it, so that the common cases never produce leftovers at
// all and the /proc search at exit remains the safety net. Run does not
// import the planner itself: the caller picks the planner and its language
// (matching WithShell). An error from prepare aborts Run before anything
// starts.
func WithPrepare(prepare func(script string) (string, error)) Option {
	return func(c *config) { c.prepare = prepare }
}

// WithForwardSignals makes Run catch the given signals while it runs and
// send them to the shell's process group. The shell runs in its own group,
// so a terminal's ^C or a supervisor's SIGTERM aimed at the caller would
// otherwise never reach it. The shexec command forwards SIGINT, SIGTERM and
// SIGHUP.
func WithForwardSignals(sigs ...os.Signal) Option {
	return func(c *config) { c.signals, c.signalCh = sigs, nil }
}

// WithSignalChannel makes Run send every signal that arrives on ch while
// it runs to the shell's process group, like WithForwardSignals, except
// that the caller registers the channel (signal.Notify) and unregisters it
// when it likes. A program that runs one command and exits can register
// once and never call signal.Stop, whose three round trips to the
// runtime's signal thread are otherwise paid after the shell has exited,
// by every run (the shexec command does this). Signals that arrive when no
// Run is in progress stay in ch. It replaces WithForwardSignals.
func WithSignalChannel(ch <-chan os.Signal) Option {
	return func(c *config) { c.signalCh, c.signals = ch, nil }
}
