package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/hook"
)

const hookUsageHead = `shguard hook reads one tool call of a coding agent as JSON on stdin and
answers on stdout in that agent's own protocol, so that the agent never runs
a command that hangs its tool, and learns what leaks.

Usage:
  shguard hook [flags] < payload.json
  shguard hook --print-config AGENT

Protocols (--protocol; without it the payload's shape decides: Copilot's
toolArgs, Cline's hookName, Cursor's beforeShellExecution, Gemini's
BeforeTool, Crush's "event", Codex's turn_id, Claude's hook_event_name or
tool_name, a bare {"command"}):
  claude   Claude Code PreToolUse (Bash)
  codex    Codex CLI PreToolUse (Bash)
  gemini   Gemini CLI BeforeTool (run_shell_command)
  cursor   Cursor beforeShellExecution
  copilot  GitHub Copilot CLI preToolUse (bash)
  cline    Cline PreToolUse hook file (run_commands, execute_command)
  crush    Crush PreToolUse (bash)
  json     {"command": "..."} in; the fixed command, a promotion plan and
           the findings out, for agent frameworks

What each gets, in short:
  * clean commands, other tools, commands that are not valid shell: no
    answer (the call goes ahead);
  * only advice or leaks (nothing hangs): the call goes ahead unchanged,
    with the advice in the agent's context channel where it has one;
  * a command that would hang the tool: the richest answer the agent
    honours. A lone 'cmd &' moves to the agent's own background mode
    (Claude and Crush run_in_background, Gemini is_background); otherwise
    the behaviour-preserving fixes ('A && B &' -> 'A && exec B &') and, with
    --mode rewrite, log files for jobs that still hold the output. Claude
    and Gemini are asked to confirm (or allowed with --allow), Crush gets
    the change as updated_input; Codex, Cursor, Copilot and Cline, which
    cannot ask, get a deny whose reason holds the exact command to run
    instead (Codex: the rewrite itself with --allow).
  --allow never grants more than the user did: for Claude Code it approves
  a change only when the command as written would have run without a
  prompt under the permission rules of its settings files; where nobody is
  asked (permission_mode dontAsk, bypassPermissions) a change is allowed
  only then and denied otherwise, never "ask".

The shell: --shell wins; else the agent's (Claude Code: CLAUDE_CODE_SHELL,
else $SHELL; the others: $SHELL), else .shguardrc in the payload's cwd, else
bash. Job logs (--mode rewrite) go to --log-dir, else, for Claude Code,
<cwd>/.shguard/jobs (its sandbox lets commands write in the project, not
always in /tmp; the directory gets a .gitignore), else $TMPDIR/shguard-jobs.

Exit status: 0 with an answer or none; for a payload that cannot be read,
the agent's non-blocking error status (1; 0 for Copilot and Cline) and a
line on stderr, never one that blocks the tool; 3 bad usage.

Flags:
`

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("shguard hook", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	var (
		protocol = fs.String("protocol", "", "the agent's protocol: "+strings.Join(hook.Names(), ", ")+" (default: from the payload)")
		mode     = fs.String("mode", "rewrite", "background work that would hang the tool mid-command: rewrite (send its output\nto a log file) or deny (refuse, say how to start it instead)")
		allow    = fs.Bool("allow", false, `approve changed commands that the user's rules would have run without a prompt`)
		style    = fs.String("style", "default", "fix style for 'A && B &': default or brace")
		shell    = fs.StringP("shell", "s", "", "the shell that runs the command: bash, zsh, dash, sh, mksh (default: the agent's)")
		lang     = fs.String("lang", "", "same as --shell")
		logDir   = fs.String("log-dir", "", "directory for the logs of rewritten jobs")
		norc     = fs.Bool("norc", false, "ignore .shguardrc")
		printCfg = fs.String("print-config", "", "print the configuration snippet that installs the hook in AGENT and exit")
		help     = fs.BoolP("help", "h", false, "show this help")
	)
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "shguard hook: "+format+"\nRun 'shguard hook --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, hookUsageHead+fs.FlagUsages())
		return exitClean
	}
	if *printCfg != "" {
		cfg, ok := hook.Config(*printCfg)
		if !ok {
			return usageErr("no configuration for %q (want one of %s)", *printCfg, strings.Join(hook.ConfigNames(), ", "))
		}
		fmt.Fprint(stdout, cfg)
		return exitClean
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q: the payload comes on stdin", fs.Arg(0))
	}
	var opt hook.Options
	var err error
	if opt.Mode, err = hook.ParseMode(*mode); err != nil {
		return usageErr("--mode: %v", err)
	}
	if opt.Style, err = analyze.ParseStyle(*style); err != nil {
		return usageErr("--style: %v", err)
	}
	opt.StyleSet = fs.Changed("style")
	if *shell == "" {
		shell = lang
	}
	if *shell != "" {
		if opt.Lang, err = analyze.ParseLang(*shell); err != nil {
			return usageErr("--shell: %v", err)
		}
		opt.ShellSet = true
	}
	opt.Allow, opt.LogDir, opt.NoRC = *allow, *logDir, *norc
	var pr *hook.Protocol
	if *protocol != "" {
		if pr = hook.Lookup(*protocol); pr == nil {
			return usageErr("unknown protocol %q (want one of %s)", *protocol, strings.Join(hook.Names(), ", "))
		}
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook: reading stdin: %v\n", err)
		return 1
	}
	if pr == nil {
		if pr = hook.Detect(payload); pr == nil {
			// Not a shape we know: never block, say why.
			fmt.Fprintf(stderr, "shguard hook: the payload is not one of the known agents' (%s); pass --protocol; the call goes ahead unchecked\n", strings.Join(hook.Names(), ", "))
			return 0
		}
	}
	ans, err := pr.Handle(payload, opt)
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook: %v\n", err)
		return ans.Exit
	}
	if ans.Outcome != nil {
		if err := ans.Outcome.MakeLogDir(); err != nil {
			fmt.Fprintf(stderr, "shguard hook: creating the job log directory: %v; the call goes ahead unchanged\n", err)
			return ans.Exit
		}
	}
	stdout.Write(ans.Stdout)
	return ans.Exit
}
