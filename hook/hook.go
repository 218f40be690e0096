// Package hook decides what to do with a shell command before an agent's
// tool layer runs it: let it through, hand back a command that cannot hang
// the tool, move it to the background, or refuse it with a reason the
// model can act on. Decide is the shared, side-effect-free decision; one
// adapter per agent (claude.go, codex.go, gemini.go, cursor.go, copilot.go,
// cline.go, crush.go, opencode.go, qwen.go, generic.go) turns that agent's payload into a
// Request and the decision into the answer that agent honours (respond.go).
// `shguard hook` is a thin command over it.
//
// What it does with a command, in order:
//
//   - not valid shell, clean, or only advice (info findings): unchanged;
//     advice goes back as context for the model;
//   - only leaks, cannot hang (`nohup ./srv >/dev/null 2>&1 &`): Hang is
//     false; the fixed command is offered, and the responder runs the
//     original unchanged with advice unless the change needs no prompt;
//   - one background statement and nothing else to run (`cd app && npm run
//     dev &`), when the agent has a background mechanism
//     (Options.Background): the & is dropped and the command is run in the
//     background by the tool itself (run_in_background), which then owns
//     the job (see rewrite.Plan);
//   - otherwise the behaviour-preserving fixes are applied (rewrite.Fix,
//     `A && B &` → `A && exec B &`); if background work still holds the
//     tool's output, ModeRewrite sends each such job's output to a log file
//     named by Options.LogFile (the paths go back as context; jobs inside
//     a nested `bash -c "..."` string too, where the quoting allows); a
//     command whose jobs cannot be redirected moves whole to the agent's
//     background mechanism if it has one, else into a managed job (job.go),
//     each redirected job's pid written beside its log; ModeDeny, or no way left,
//     refuses the command with a reason that tells the model what to run;
//   - a command that never ends in the foreground (a server, watcher or
//     log follower: the analyzer's SG3001) moves to the background
//     mechanism, else becomes a managed job (job.go).
//
// Decide only computes: it creates no directory and picks no file name
// (Options.LogFile does, in the caller). Whether a change is approved,
// asked about or turned into a deny is the responder's business.
package hook

import (
	"fmt"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// Mode says what to do with background work that holds the tool's output
// in the middle of a command.
type Mode int

const (
	// ModeRewrite redirects the job's output to a log file: the command
	// runs, nothing hangs, and the model is told where the log is.
	ModeRewrite Mode = iota
	// ModeDeny refuses the command and tells the model to start the job
	// as its own call with run_in_background.
	ModeDeny
)

// ParseMode reads "rewrite" or "deny".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "rewrite":
		return ModeRewrite, nil
	case "deny":
		return ModeDeny, nil
	}
	return 0, fmt.Errorf("unknown mode %q (want rewrite or deny)", s)
}

func (m Mode) String() string {
	if m == ModeDeny {
		return "deny"
	}
	return "rewrite"
}

// Options configure the decisions.
type Options struct {
	Mode Mode
	// Lang and Style are the analyzer's (Style chooses the compound fix).
	Lang  analyze.Lang
	Style analyze.Style
	// Background: the agent can run a command in its own background mode
	// (Claude Code and Crush run_in_background, Gemini is_background).
	// Adapters set it; without it a lone `cmd &` gets a log file instead.
	Background bool
	// LogFile names the log file of the n-th (from 0) redirected job. The
	// caller owns it: it picks the directory the command can write to
	// and creates it when Outcome.Logs is not empty. nil: no job can be
	// redirected, and such a command is moved to the background or denied.
	LogFile func(n int) string
	// Find returns the absolute path of a program on the PATH the hook
	// runs with ("" when it is not there): with shexec a never-ending
	// command without a background mode becomes a shexec job (job.go),
	// with setsid a log-file job gets a process group of its own. The
	// command names it by that path: an agent may run commands in a login
	// shell whose profile resets PATH (Codex 0.171: "shexec: command not
	// found" for a shexec the hook had found). nil: neither. Asked only
	// for a command that needs it.
	Find func(program string) string
	// BackgroundParam names the background mode for the model
	// (Caps.BackgroundParam).
	BackgroundParam string
	// GroupKilled: the agent kills the tool's process group when the
	// command returns (Caps.GroupKilled): each job a rewrite leaves
	// running starts under setsid (found with Find) where it is one
	// program, so that it outlives the command as the user meant.
	GroupKilled bool
	// Analyze are extra analyzer options (e.g. analyze.WithFilter from a
	// .shguardrc).
	Analyze []analyze.Option
}

func (o Options) analyzeOpts() []analyze.Option {
	return append([]analyze.Option{analyze.WithLang(o.Lang), analyze.WithStyle(o.Style)}, o.Analyze...)
}

// Outcome is what the hook decided for one command.
type Outcome struct {
	// Command is the command to run: the input, or its rewrite.
	Command string
	// Changed reports whether Command differs from the input, or
	// Background was turned on.
	Changed bool
	// Hang: the input would hang the tool (error findings). A change to a
	// command that only leaks is offered, not needed.
	Hang bool
	// Background: run Command in the tool's own background mode.
	Background bool
	// Forever: the input never ends by itself in the foreground (a
	// server, watcher, log follower: SG3001), and Command moves it out of
	// the tool's way (background mode or a managed job, job.go). Like
	// Hang, the change is needed, not offered.
	Forever bool
	// Deny, when not "", refuses the command with this reason.
	Deny string
	// Reason says what was changed and why (for the permission prompt).
	Reason string
	// Context is advice or an account of the change for the model.
	Context string
	// Logs are the log files ModeRewrite sends job output to (each job's
	// pid is recorded beside it, pidFile), and the log of a managed job.
	Logs []string
	// Stops are the commands that stop the job writing each of Logs (and
	// all it started), in the same order.
	Stops []string
	// Findings are those of the input command, Remaining those of
	// Command.
	Findings, Remaining []analyze.Finding
	// Fixed are the findings whose behaviour-preserving fix was applied
	// (positions in the input).
	Fixed []analyze.Finding
}

// Decide analyzes a command and decides. A command that is not valid shell
// returns the analyzer's *analyze.ParseError: the caller lets it through
// and bash reports it.
func Decide(cmd string, opt Options) (*Outcome, error) {
	src := []byte(cmd)
	// One analysis of the command serves the verdict, the plan and the
	// fixes; what is analysed again below is only what they make.
	res, err := analyze.Run(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, err
	}
	findings := dropRecorded(src, res, res.Findings)
	out := &Outcome{Command: cmd, Findings: findings, Remaining: findings, Hang: analyze.Verdict(findings) == analyze.Error}
	if analyze.Verdict(findings) == 0 {
		if len(findings) > 0 {
			out.Context = "shguard advice:\n" + list(findings)
		}
		if forever(findings) {
			return moveForever(out, cmd, opt), nil
		}
		return out, nil
	}

	plan := rewrite.PlanResult(src, res, opt.analyzeOpts()...)
	if out.Hang && plan.Foreground == "" && len(plan.Jobs) == 1 {
		job := plan.Jobs[0]
		bg, err := analyze.Analyze([]byte(job.Script()), opt.analyzeOpts()...)
		if err == nil && analyze.Verdict(bg) < analyze.Error && opt.Background {
			out.Command, out.Background, out.Changed, out.Remaining = job.Script(), true, true, bg
			out.Reason = "shguard: " + why(findings) + ". Changed: `" + short(job.Command) +
				"` now runs as a background task of the tool (run_in_background: true), without the trailing &"
			out.Context = "shguard moved this command to the background (run_in_background: true, trailing & removed) so that the tool owns the job: read its output and stop it with the tool's background-task commands."
			return out, nil
		}
		// Without a background mode the lone job becomes a managed job:
		// in a process group (or a shexec job) of its own, so that it
		// outlives a tool that kills its process group when the command
		// ends (Codex) and one kill stops all it started.
		if err == nil && analyze.Verdict(bg) < analyze.Error && !opt.Background && opt.LogFile != nil {
			if moved := moveWhole(out, job.Script(), "would hang the tool ("+why(findings)+")", opt); moved.Changed {
				return moved, nil
			}
		}
	}

	fixed := rewrite.FixResult(src, res, opt.analyzeOpts()...)
	cur := fixed.Out
	remaining := fixed.Remaining
	out.Fixed = fixed.Applied
	if analyze.Verdict(remaining) == analyze.Error {
		red, err := redirectJobs(cur, opt)
		if opt.Mode == ModeDeny {
			if opt.Background || err != nil {
				// deny mode's promise: the jobs as their own calls in
				// the background mode, where there is one
				red = &redirected{}
			}
			out.Deny = "shguard: this command would hang the tool: " + why(remaining) + ". It was not run. " + instead(cur, red.out, opt)
			out.Logs, out.Stops = red.logs, red.stops
			return out, nil
		}
		if err != nil && opt.Background {
			// The jobs sit where no redirection can reach (a coprocess,
			// a quoted string we may not touch): the whole command runs
			// as the tool's background task, which owns what it starts.
			out.Command, out.Background, out.Changed = cmd, true, true
			out.Reason = "shguard: " + why(remaining) + ". Changed: the whole command now runs as a background task of the tool (run_in_background: true), so that it cannot hang the tool"
			out.Context = "shguard moved this command to the background (run_in_background: true) because background work inside it would hang the tool: read its output with the tool's background-task commands."
			return out, nil
		}
		if err != nil && opt.LogFile != nil {
			// The same without a background mode: the whole command
			// runs as a managed job (job.go), whose output cannot reach
			// the tool.
			if moved := moveWhole(out, cmd, "would hang the tool ("+why(remaining)+")", opt); moved.Changed {
				return moved, nil
			}
		}
		if err != nil {
			out.Deny = "shguard: this command would hang the tool (" + why(remaining) + ") and could not be rewritten (" + err.Error() + "). It was not run. " + instead(cur, nil, opt)
			return out, nil
		}
		cur, out.Logs, out.Stops = red.out, red.logs, red.stops
		if remaining, err = analyze.Analyze(cur, opt.analyzeOpts()...); err != nil {
			return nil, err // cannot happen: redirectJobs checks the parse
		}
		remaining = red.beyond(remaining)
	}
	out.Remaining = remaining
	if forever(remaining) {
		return moveForever(out, string(cur), opt), nil
	}
	if string(cur) == cmd {
		out.Context = "shguard warnings (the command runs unchanged):\n" + list(findings)
		return out, nil
	}
	if !out.Hang {
		// Only leaks: the fix is offered; the responder runs the original
		// unless the change needs no prompt.
		out.Command, out.Changed, out.Fixed = string(cur), true, fixed.Applied
		out.Reason = "shguard: " + why(findings) + ". Changed so that it does not leak"
		out.Context = "shguard warnings (the command runs unchanged: it can leak a process but cannot hang the tool):\n" + list(findings) +
			"\nA version that does not leak: " + string(cur)
		return out, nil
	}
	out.Command, out.Changed = string(cur), true
	var b strings.Builder
	b.WriteString("shguard changed the command so that it cannot hang the tool:\n")
	for _, f := range fixed.Applied {
		fmt.Fprintf(&b, "- %s [%s]\n", firstFix(f), f.Rule)
	}
	for i, l := range out.Logs {
		fmt.Fprintf(&b, "- background job %d keeps running after the command returns; its output goes to %s (read it with tail or cat), its pid to %s; stop it with: %s (it and all it started)\n", i+1, l, pidFile(l), out.Stops[i])
	}
	if len(remaining) > 0 {
		b.WriteString("Still worth knowing:\n" + list(remaining))
	}
	out.Context = strings.TrimSuffix(b.String(), "\n")
	out.Reason = "shguard: " + why(findings) + ". Changed so that it cannot hang: review the rewritten command"
	// The reason also reaches an agent without a context channel (Gemini
	// CLI shows it to the user): each job that runs on is named there too.
	for i, l := range out.Logs {
		out.Reason += fmt.Sprintf(". Background job %d: log %s, stop it with: %s", i+1, l, out.Stops[i])
	}
	return out, nil
}

// why joins the messages of the worst findings into one clause.
func why(fs []analyze.Finding) string {
	v := analyze.Verdict(fs)
	var ms []string
	for _, f := range fs {
		if f.Severity == v {
			ms = append(ms, strings.TrimSuffix(f.Message, ".")+" ["+f.Rule+"]")
		}
	}
	return strings.Join(ms, "; ")
}

func list(fs []analyze.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "- %s: %s [%s]\n", f.Severity, f.Message, f.Rule)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func firstFix(f analyze.Finding) string {
	if len(f.Fixes) > 0 {
		return f.Fixes[0].Message
	}
	return f.Message
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// quote makes a shell word of s.
func quote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+=:,@%", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
