//go:build linux || darwin || freebsd

package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/shguard/shguard/exec"
	"github.com/shguard/shguard/internal/version"
)

// options are shexec's own settings: long flags before the shell's
// arguments, or SHEXEC_* environment variables.
type options struct {
	shell          string
	timeout, grace time.Duration
	yield          time.Duration
	leftovers      string
	promote        bool
	promoteSet     bool // --promote or SHEXEC_PROMOTE was given
	background     bool
	session        string
	json           bool
	maxOutput      int
	nonInteractive bool
	quiet          bool
	// keepFor and keep bound the finished jobs' records (exec.Store's
	// KeepFor and Keep: negative is no limit).
	keepFor time.Duration
	keep    int
	// login: shexec was started as a login shell, with a '-' before its
	// name (tmux's default-shell, login(1)); the shell gets -l.
	login bool
}

// fromEnv are the flags that may also be set as SHEXEC_NAME (upper case,
// '-' as '_'), for hosts that take only a path for the shell: make SHELL,
// npm script-shell, tmux default-shell, Python's executable=. Those that
// change what shexec prints (--json, --yield, --background) or are commands
// of their own (--help) are left out: a variable inherited by every nested
// shell must not change a drop-in shell's output contract.
var fromEnv = []string{"shell", "timeout", "grace", "leftovers", "promote", "non-interactive", "quiet", "keep-jobs", "keep-jobs-for"}

// envName is the variable that sets a flag.
func envName(flag string) string {
	return "SHEXEC_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// parseOptions reads shexec's own flags at the start of args and returns
// them with the number of words they took; the rest belongs to the shell.
// A nil *options means shexec is done (--help, --version or a usage error)
// with the returned status.
func parseOptions(args []string, stdout, stderr io.Writer) (*options, int, int) {
	o := &options{login: strings.HasPrefix(os.Args[0], "-")}
	fs := newFlagSet("shexec")
	fs.StringVar(&o.shell, "shell", "bash", "the shell to run, with the arguments that follow: a name in $PATH or a path\n(bash, zsh, dash, sh, mksh; the shell's own grammar reads them)")
	timeout, grace, yield := durationFlag(0), durationFlag(2*time.Second), durationFlag(0)
	fs.Var(&timeout, "timeout", "stop everything after this long and exit 124 (default: no limit)")
	fs.Var(&grace, "grace", "time between SIGTERM and SIGKILL")
	fs.Var(&yield, "yield", "if CMD still runs after this long, return and let it go on as a managed job")
	fs.StringVar(&o.leftovers, "leftovers", "adopt", "what to do with processes still alive when the shell exits:\nadopt (they become a managed job, see 'shexec jobs --help'),\nkill (SIGTERM, grace, SIGKILL) or keep (leave them running)")
	fs.BoolVar(&o.promote, "promote", false, "start the command's leading background statements ('server &') as managed jobs\nbefore the rest runs, so their output goes to job logs (default: on with\n--leftovers adopt, off with kill or keep; --promote=false turns it off)")
	fs.BoolVar(&o.background, "background", false, "start CMD as a managed job and print its id at once")
	fs.StringVar(&o.session, "session", os.Getenv(exec.SessionEnv), "session recorded in the jobs this run creates (default $"+exec.SessionEnv+")")
	fs.BoolVar(&o.json, "json", false, "print one JSON object with status, exit code and capped output")
	maxOutput := fs.Int("max-output", 64<<10, "with --json: bytes kept of stdout and of stderr each (head and tail)")
	fs.BoolVar(&o.nonInteractive, "non-interactive", false, "stdin from /dev/null; pagers, editors, prompts and colours off\n(PAGER=cat GIT_PAGER=cat GIT_EDITOR=true EDITOR=true VISUAL=true\nGIT_TERMINAL_PROMPT=0 TERM=dumb NO_COLOR=1 DEBIAN_FRONTEND=noninteractive)")
	fs.BoolVar(&o.quiet, "quiet", false, "write nothing to stderr but the shell's own output and shexec's errors:\nnot even the line naming a job that holds work the command started")
	keepFor := durationFlag(exec.DefaultKeepFor)
	fs.Var(&keepFor, "keep-jobs-for", "remove a finished job's record this long after its end, when a job is\ncreated (0: no limit)")
	keep := fs.Int("keep-jobs", exec.DefaultKeep, "keep the records of at most this many finished jobs, the latest ended,\nwhen a job is created (0: no limit)")
	help := fs.Bool("help", false, "show this help")
	ver := fs.Bool("version", false, "print the version (module version, VCS revision) and exit")

	usageErr := func(format string, a ...any) (*options, int, int) {
		fmt.Fprintf(stderr, "shexec: "+format+"\nRun 'shexec --help' for usage.\n", a...)
		return nil, 0, exitUsage
	}
	for _, name := range fromEnv {
		if v, ok := os.LookupEnv(envName(name)); ok && v != "" {
			if err := fs.SetFromEnv(name, v); err != nil {
				return usageErr("$%s: %v", envName(name), err)
			}
		}
	}
	n := fs.OwnFlags(args)
	if err := fs.Parse(args[:n]); err != nil {
		return usageErr("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, usageHead+fs.FlagUsages()+usageTail)
		return nil, 0, 0
	}
	if *ver {
		fmt.Fprintln(stdout, version.String("shexec"))
		return nil, 0, 0
	}
	if o.leftovers != "adopt" {
		// Not for the default, for which it would build an error (with
		// fmt) at every start only to drop it.
		if _, err := exec.ParseLeftoverPolicy(o.leftovers); err != nil {
			return usageErr("--leftovers: %v", err)
		}
	}
	if *maxOutput < 2 {
		return usageErr("--max-output must be at least 2")
	}
	o.timeout, o.grace, o.yield = time.Duration(timeout), time.Duration(grace), time.Duration(yield)
	o.maxOutput = *maxOutput
	o.keepFor, o.keep = time.Duration(keepFor), *keep
	if o.keepFor == 0 {
		o.keepFor = -1
	}
	if o.keep <= 0 {
		o.keep = -1
	}
	o.promoteSet = fs.Changed("promote")
	return o, n, 0
}
