package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/hook"
	"github.com/shguard/shguard/shguardrc"
)

const hookUsageHead = `shguard hook reads one tool call of a coding agent as JSON on stdin and
answers on stdout, so that the agent never runs a command that hangs its
tool or leaks a process. Set up per agent: docs/agents.md, or
'shguard hook --print-config AGENT' (Claude Code: a PreToolUse hook with
matcher "Bash" and command "shguard hook --protocol claude").

Usage:
  shguard hook [flags] < payload.json

Protocols: claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI),
cursor (Cursor), copilot (GitHub Copilot CLI), cline (Cline), crush (Crush),
opencode (OpenCode, through its plugin), qwen (Qwen Code), json (any
framework). Without --protocol the payload's shape decides, in
this order:
%s
For each shell call:
  * clean commands, other tools and events, commands that are not valid
    shell: no output (the call goes ahead as it is);
  * advice, or a command that can only leak a process
    ('nohup ./srv >/dev/null 2>&1 &'): the call goes ahead unchanged, with
    the advice for the model where the agent has a context channel;
  * a command that only starts one thing in the background
    ('cd app && npm run dev &'), or never ends in the foreground (a server,
    watcher or log follower: 'npm run dev', 'tail -f log'): moved to the
    agent's background mode (Claude Code and Crush run_in_background; Qwen
    Code is told to use is_background); elsewhere it becomes a managed job
    (shexec --yield when shexec is on PATH, else a setsid log-file job
    whose pid is recorded) that returns with its first lines;
  * a command that would hang the tool ('server & sleep 2; curl ...'): the
    behaviour-preserving fixes are applied and (--mode rewrite, default)
    each job that still holds the output writes to a log file, its pid
    beside it, also inside a nested 'bash -c "..."' string; --mode deny
    refuses.
  A change adds no prompt and removes none: it is applied silently where
  the agent applies a change through its own approval (Gemini CLI, Crush,
  Codex, Cline CLI, OpenCode) or where the agent's own rules would have run
  the command as written without a prompt (Claude Code's settings and
  mode: "allow"); shown to the user ("ask") only where the original would
  have prompted and someone can answer (not claude -p); else, and in
  agents that cannot take a change (Copilot CLI, Cursor, Qwen Code),
  refused with the exact command to run instead. Every job left running is
  named in the answer with its log and the command that stops it.

The shell analysed: --shell, else the agent's (Claude Code: CLAUDE_CODE_SHELL,
else $SHELL), else the project's .shguardrc (found from the payload's cwd),
else bash. Job logs: --log-dir, else (Claude Code) .shguard/jobs in the
project, which its sandbox lets commands write, else $TMPDIR/shguard-jobs.

Generic (--protocol json): {"command": "..."} in; out
  {"command": fixed, "changed": bool, "plan": {"foreground": "...",
   "jobs": [{"command", "prelude", "script", "holds_output"}]},
   "findings": [...], "fixed": [...], "error": "line:col: ..." (not shell)}

Exit status: 0 with an answer or none. A payload that cannot be read gets
a line on stderr and the agent's non-blocking error status: 1 for claude,
codex, gemini, cursor, crush, opencode, qwen and json; 0 for copilot and
cline (and when no agent is recognised), never 2, which blocks the tool.
--doctor: 0 when the installation is complete, 1 when something is
missing. 3: bad usage.

Flags:
`

// maxPayload bounds what the hook reads: a bigger payload is reported
// and let through rather than analysed at length.
const maxPayload = 4 << 20

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("shguard hook")
	var (
		protocol    = fs.String("protocol", "", "agent protocol: "+strings.Join(hook.Names(), ", ")+" (default: from the payload)")
		mode        = fs.String("mode", "rewrite", "background work that would hang the tool mid-command: rewrite (send its output\nto a log file) or deny (refuse, tell the model what to run)")
		_           = fs.Bool("allow", false, "no effect, kept for older configurations: a change to a command the agent's\nown rules run without a prompt is now always approved")
		style       = fs.String("style", "", "fix style for 'A && B &': default or brace (default: .shguardrc, else default)")
		shell       = fs.StringP("shell", "s", "", "the shell that runs the command: bash, zsh, dash, sh, mksh (default: the agent's)")
		lang        = fs.String("lang", "", "same as --shell")
		norc        = fs.Bool("norc", false, "ignore .shguardrc")
		logDir      = fs.String("log-dir", "", "directory for the logs of rewritten jobs")
		printConfig = fs.String("print-config", "", "print the configuration that installs the hook for AGENT and exit")
		doctor      = fs.String("doctor", "", "check that the hook is installed for AGENT so that it runs, say what is\nmissing, and exit 1 if anything is")
		help        = fs.BoolP("help", "h", false, "show this help")
	)
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "shguard hook: "+format+"\nRun 'shguard hook --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%v", err)
	}
	if *help {
		var rules strings.Builder
		for _, p := range hook.Protocols {
			fmt.Fprintf(&rules, "  %-8s %s\n", p.Name, p.DetectRule)
		}
		fmt.Fprintf(stdout, hookUsageHead, rules.String())
		fmt.Fprint(stdout, fs.FlagUsages())
		return exitClean
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: the payload comes on stdin", fs.Arg(0))
	}
	if *printConfig != "" {
		cfg, ok := hook.Config(*printConfig)
		if !ok {
			return usageErr("--print-config: unknown agent %q (want %s)", *printConfig, strings.Join(hook.ConfigNames(), ", "))
		}
		fmt.Fprintf(stderr, "# put this in %s\n", hook.ConfigWhere(*printConfig))
		if setup := hook.ConfigSetup(*printConfig); setup != "" {
			fmt.Fprintf(stderr, "# and: %s\n", strings.ReplaceAll(setup, "\n", "\n#      "))
		}
		fmt.Fprint(stdout, cfg)
		return exitClean
	}
	if *doctor != "" {
		return runDoctor(*doctor, stdout, stderr)
	}
	var opt hook.Options
	var err error
	if opt.Mode, err = hook.ParseMode(*mode); err != nil {
		return usageErr("--mode: %v", err)
	}
	if *style != "" {
		if opt.Style, err = analyze.ParseStyle(*style); err != nil {
			return usageErr("--style: %v", err)
		}
	}
	if *shell == "" {
		*shell = *lang
	}
	if *shell != "" {
		if opt.Lang, err = analyze.ParseLang(*shell); err != nil {
			return usageErr("--shell: %v", err)
		}
	}
	var proto *hook.Protocol
	if *protocol != "" {
		if proto = hook.Lookup(*protocol); proto == nil {
			return usageErr("unknown protocol %q (want %s)", *protocol, strings.Join(hook.Names(), ", "))
		}
	}
	// From here on nothing may block the agent: every failure exits with
	// the agent's non-blocking status (0 when the agent is unknown).
	fail := func(err error) int {
		fmt.Fprintf(stderr, "shguard hook: %v\n", err)
		if proto == nil {
			return 0
		}
		return proto.ErrorExit
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, maxPayload+1))
	if err != nil {
		return fail(fmt.Errorf("reading stdin: %v", err))
	}
	if len(payload) > maxPayload {
		return fail(fmt.Errorf("payload larger than %d MiB: not analysed, the call goes ahead", maxPayload>>20))
	}
	if len(bytes.TrimSpace(payload)) == 0 {
		return fail(fmt.Errorf("empty payload on stdin: nothing to judge"))
	}
	if proto == nil {
		if proto, err = hook.Detect(payload); err != nil {
			return fail(err)
		}
	}
	if proto.Direct != nil {
		out, err := proto.Direct(payload, opt)
		if err != nil {
			return fail(err)
		}
		stdout.Write(out)
		return exitClean
	}
	home, _ := os.UserHomeDir()
	env := hook.Env{Getenv: os.Getenv, ReadFile: os.ReadFile, Home: home, GOOS: runtime.GOOS}
	call, err := proto.Parse(payload, env)
	if err != nil {
		return fail(err)
	}
	if call == nil {
		return exitClean
	}
	hookOptions(&opt, call, *shell != "", *style != "", *norc, stderr)
	dir := jobDir(*logDir, proto, call)
	opt.LogFile = func(int) string {
		return filepath.Join(dir, fmt.Sprintf("job-%012x.log", rand.Uint64()&(1<<48-1)))
	}
	opt.Find = onPath
	ans, err := hook.Respond(call.Request, call.Caps, opt)
	if err != nil {
		return fail(err)
	}
	if len(ans.Logs) > 0 {
		if err := makeJobDir(dir); err != nil {
			return fail(err)
		}
	}
	out, err := call.Render(ans)
	if err != nil {
		return fail(err)
	}
	if len(out) > 0 { // a clean call is answered by no output at all
		stdout.Write(out)
	}
	return exitClean
}

// hookOptions fills in what the flags left open: the shell the agent
// runs (call.Shell), then the project's .shguardrc found from the call's
// directory (shell, fix style, rule selection). A broken .shguardrc is
// reported and skipped: the hook must not stop the agent over it.
func hookOptions(opt *hook.Options, call *hook.Call, langSet, styleSet, norc bool, stderr io.Writer) {
	if !langSet && call.Shell != "" {
		if l, ok := analyze.LangFromPath(call.Shell); ok {
			opt.Lang, langSet = l, true
		} else {
			call.ShellFrom = "" // a shell the analyzer does not know: bash is assumed
			fmt.Fprintf(stderr, "shguard hook: shell %q is not one shguard analyses; analysing as bash\n", call.Shell)
		}
	} else if langSet {
		call.ShellFrom = "--shell"
	}
	dir := call.Cwd
	if dir == "" {
		dir = "."
	}
	// the files the command runs (node server.js), read where it runs
	opt.Analyze = append(opt.Analyze, analyze.WithFiles(os.DirFS(dir)))
	path, err := shguardrc.Find(dir)
	if norc || err != nil || path == "" {
		return
	}
	rc, err := shguardrc.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook: %v (ignored)\n", err)
		return
	}
	if !langSet && rc.Lang != nil {
		opt.Lang = *rc.Lang
		call.ShellFrom = rc.Path
	}
	if !styleSet && rc.Style != nil {
		opt.Style = *rc.Style
	}
	if len(rc.Servers) > 0 {
		opt.Analyze = append(opt.Analyze, analyze.WithServers(rc.Servers...))
	}
	inc, exc := set(rc.Include), set(rc.Exclude)
	if len(inc) > 0 || len(exc) > 0 {
		opt.Analyze = append(opt.Analyze, analyze.WithFilter(func(f analyze.Finding) bool {
			return (len(inc) == 0 || inc[f.Rule]) && !exc[f.Rule]
		}))
	}
}

// jobDir is where the logs of rewritten jobs go. Claude Code's sandbox
// lets a command write in the working directory and below (not
// necessarily in $TMPDIR, which differs inside the sandbox), so for
// Claude Code the logs go to .shguard/jobs in the project directory
// (CLAUDE_PROJECT_DIR, else the payload's cwd), which makeJobDir keeps
// out of git. Elsewhere: $TMPDIR/shguard-jobs. A path that would need
// shell quoting is not used (the hook then moves or refuses the job).
func jobDir(flag string, p *hook.Protocol, call *hook.Call) string {
	if flag != "" {
		if abs, err := filepath.Abs(flag); err == nil {
			return abs
		}
		return flag
	}
	if p == hook.Claude {
		project := os.Getenv("CLAUDE_PROJECT_DIR")
		if project == "" {
			project = call.Cwd
		}
		if d := filepath.Join(project, ".shguard", "jobs"); filepath.IsAbs(project) && plainPath(d) {
			return d
		}
	}
	return filepath.Join(os.TempDir(), "shguard-jobs")
}

// makeJobDir creates the log directory (0700) and, in a project, a
// .gitignore that keeps it out of the repository.
func makeJobDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if filepath.Base(filepath.Dir(dir)) == ".shguard" {
		ign := filepath.Join(filepath.Dir(dir), ".gitignore")
		if _, err := os.Stat(ign); os.IsNotExist(err) {
			return os.WriteFile(ign, []byte("# shguard hook job logs\n*\n"), 0o644)
		}
	}
	return nil
}

// plainPath reports whether a path reads the same unquoted in any shell
// quotes, as a log path spliced into the command must.
func plainPath(p string) bool {
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+=:,@%", c)) {
			return false
		}
	}
	return p != ""
}

// onPath returns the absolute path of the executable named name in
// $PATH, which the hook shares with the agent that started it ("" when
// there is none).
func onPath(name string) string {
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			continue // the current directory: not a place to run a job from
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
	}
	return ""
}
