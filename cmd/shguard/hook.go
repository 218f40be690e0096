package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/hook"
)

const hookUsageHead = `shguard hook reads one tool call as JSON on stdin and answers on stdout, so
that an agent never runs a command that hangs its tool or leaks a process.

Usage:
  shguard hook [flags] < payload.json

Claude Code (--protocol claude, the default): install it in
.claude/settings.json as a PreToolUse hook with matcher "Bash" and command
"shguard hook". For each Bash call:
  * clean commands, other tools, commands that are not valid shell: no output
    (the call goes ahead as it is);
  * only advice or warnings: the call goes ahead unchanged, with the advice
    for the model in additionalContext;
  * a command that only starts one thing in the background
    ('cd app && npm run dev &'): the & is dropped and run_in_background is set,
    so the tool owns the job;
  * a command that would hang the tool ('server & sleep 2; curl ...'): the
    behaviour-preserving fixes are applied ('A && B &' -> 'A && exec B &'), and
    with --mode rewrite (default) each background job that still holds the
    output writes to a log file instead (paths in additionalContext); with
    --mode deny the call is refused with a reason telling the model to start
    the job with run_in_background.
  A changed command gets permissionDecision "ask" (the user confirms), or
  "allow" with --allow. Every other field of tool_input is kept.

Generic (--protocol json): {"command": "..."} in; out
  {"command": fixed, "changed": bool, "plan": {"foreground": "...",
   "jobs": [{"command", "prelude", "script", "holds_output"}]},
   "findings": [...], "fixed": [...], "error": "line:col: ..." (not shell)}
  The plan tells which background jobs your framework should run itself.

Exit status: 0 with an answer or none; 1 if the payload is not valid JSON
(never 2, which would block the tool call); 3 bad usage.

Flags:
`

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("shguard hook", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	var (
		protocol = fs.String("protocol", "claude", "input and output shape: claude (Claude Code PreToolUse) or json")
		mode     = fs.String("mode", "rewrite", "background work that would hang the tool mid-command: rewrite (send its output\nto a log file) or deny (refuse, tell the model to use run_in_background)")
		allow    = fs.Bool("allow", false, `approve changed commands ("allow") instead of asking the user ("ask")`)
		style    = fs.String("style", "default", "fix style for 'A && B &': default or brace")
		lang     = fs.String("lang", "bash", "shell language: bash, posix or mksh")
		logDir   = fs.String("log-dir", "", "directory for the logs of rewritten jobs (default $TMPDIR/shguard-jobs)")
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
	if opt.Lang, err = analyze.ParseLang(*lang); err != nil {
		return usageErr("--lang: %v", err)
	}
	opt.Allow, opt.LogDir = *allow, *logDir
	answer := hook.Claude
	switch *protocol {
	case "claude":
	case "json":
		answer = hook.Generic
	default:
		return usageErr("unknown protocol %q (want claude or json)", *protocol)
	}
	payload, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook: reading stdin: %v\n", err)
		return 1
	}
	out, err := answer(payload, opt)
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook: %v\n", err)
		return 1
	}
	stdout.Write(out)
	return exitClean
}
