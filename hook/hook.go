// Package hook decides what to do with a shell command before an agent's
// tool layer runs it: let it through, hand back a command that cannot hang
// the tool, move it to the background, or refuse it with a reason the
// model can act on. It speaks Claude Code's PreToolUse hook protocol
// (Claude) and a generic JSON shape (Generic); `shguard hook` is a thin
// command over it.
//
// What it does with a command, in order:
//
//   - not valid shell, clean, or only advice (info findings): unchanged;
//     advice and warnings go back as context for the model;
//   - one background statement and nothing else to run (`cd app && npm run
//     dev &`, `server >log 2>&1 &`): the & is dropped and the command is
//     run in the background by the tool itself (run_in_background), which
//     then owns the job (see rewrite.Plan);
//   - otherwise the behaviour-preserving fixes are applied (rewrite.Fix,
//     `A && B &` → `A && exec B &`); if background work still holds the
//     tool's output, ModeRewrite sends each such job's output to a log file
//     (the paths go back as context), and ModeDeny refuses the command with
//     a reason that tells the model to start the job with
//     run_in_background instead.
//
// A changed command is never silently approved: the decision is "ask"
// unless Options.Allow says "allow".
package hook

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

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
	// Allow approves changed commands ("allow") instead of asking the user
	// ("ask"). Off by default: the hook never grants a permission the user
	// did not.
	Allow bool
	// Lang and Style are the analyzer's (Style chooses the compound fix).
	Lang  analyze.Lang
	Style analyze.Style
	// LogDir is where ModeRewrite puts job logs; "" means
	// $TMPDIR/shguard-jobs. Decide only names the files; the caller
	// creates the directory (Outcome.MakeLogDir) before answering.
	LogDir string
	// NoBackground: the agent has no background mechanism of its own
	// (or it is switched off), so a lone background job is not moved to
	// it.
	NoBackground bool
	// ShellSet: Lang was chosen by the user (--shell) and wins over what
	// the agent's environment says; StyleSet the same for Style. NoRC
	// ignores .shguardrc.
	ShellSet, StyleSet, NoRC bool
	// Getenv reads the agent's environment (default os.Getenv).
	Getenv func(string) string
	// BackgroundParam names the agent's background mechanism for advice
	// ("run_in_background: true"); "" means "the tool's background mode".
	BackgroundParam string
}

// startAdvice tells the model how to start a long-running program instead.
func (o Options) startAdvice() string {
	if o.NoBackground {
		return "Redirect the long-running part's output (`>/tmp/NAME.log 2>&1`) and keep its pid to stop it (`pid=$!; …; kill $pid`), or run it in the foreground in a call of its own."
	}
	how := "in the tool's background mode"
	if o.BackgroundParam != "" {
		how = "with " + o.BackgroundParam
	}
	return "Start the long-running part as its own call " + how + " (without the &), then run the rest of the command in another call."
}

func (o Options) analyzeOpts() []analyze.Option {
	return []analyze.Option{analyze.WithLang(o.Lang), analyze.WithStyle(o.Style)}
}

// Outcome is what the hook decided for one command.
type Outcome struct {
	// Command is the command to run: the input, or its rewrite.
	Command string
	// Changed reports whether Command differs from the input, or
	// Background was turned on.
	Changed bool
	// Background: run Command in the tool's own background mode.
	Background bool
	// Deny, when not "", refuses the command with this reason.
	Deny string
	// Reason says what was changed and why (for the permission prompt).
	Reason string
	// Context is advice or an account of the change for the model.
	Context string
	// Logs are the log files ModeRewrite sends job output to.
	Logs []string
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
	findings, err := analyze.Analyze(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Command: cmd, Findings: findings, Remaining: findings}
	switch analyze.Verdict(findings) {
	case 0:
		if len(findings) > 0 {
			out.Context = "shguard advice:\n" + list(findings)
		}
		return out, nil
	case analyze.Warning:
		// Nothing hangs: no change and no prompt, only the advice.
		out.Context = "shguard warnings (the command runs unchanged):\n" + list(findings)
		return out, nil
	}

	plan, err := rewrite.Plan(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, err
	}
	if plan.Foreground == "" && len(plan.Jobs) == 1 && !opt.NoBackground {
		job := plan.Jobs[0]
		bg, err := analyze.Analyze([]byte(job.Script()), opt.analyzeOpts()...)
		if err == nil && analyze.Verdict(bg) < analyze.Error {
			out.Command, out.Background, out.Changed, out.Remaining = job.Script(), true, true, bg
			out.Reason = "shguard: " + why(findings) + ". Changed: `" + short(job.Command) +
				"` now runs as a background task of the tool (run_in_background: true), without the trailing &"
			out.Context = "shguard moved this command to the background (run_in_background: true, trailing & removed) so that the tool owns the job: read its output and stop it with the tool's background-task commands."
			return out, nil
		}
	}

	fixed, err := rewrite.Fix(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, err
	}
	cur := fixed.Out
	remaining := fixed.Remaining
	out.Fixed = fixed.Applied
	if analyze.Verdict(remaining) == analyze.Error {
		if opt.Mode == ModeDeny {
			out.Deny = "shguard: this command would hang the tool: " + why(remaining) + ". " + opt.startAdvice()
			return out, nil
		}
		logged, logs, err := redirectJobs(cur, opt)
		if err != nil {
			out.Deny = "shguard: this command would hang the tool (" + why(remaining) + ") and could not be rewritten (" + err.Error() + "). " + opt.startAdvice()
			return out, nil
		}
		cur, out.Logs = logged, logs
		if remaining, err = analyze.Analyze(cur, opt.analyzeOpts()...); err != nil {
			return nil, err // cannot happen: redirectJobs checks the parse
		}
	}
	out.Remaining = remaining
	if string(cur) == cmd {
		out.Context = "shguard warnings (the command runs unchanged):\n" + list(findings)
		return out, nil
	}
	out.Command, out.Changed = string(cur), true
	var b strings.Builder
	b.WriteString("shguard changed the command so that it cannot hang the tool:\n")
	for _, f := range fixed.Applied {
		fmt.Fprintf(&b, "- %s [%s]\n", firstFix(f), f.Rule)
	}
	for i, l := range out.Logs {
		fmt.Fprintf(&b, "- background job %d writes its output to %s (read it with tail or cat); the job keeps running after the command returns\n", i+1, l)
	}
	if len(remaining) > 0 {
		b.WriteString("Still worth knowing:\n" + list(remaining))
	}
	out.Context = strings.TrimSuffix(b.String(), "\n")
	out.Reason = "shguard: " + why(findings) + ". Changed so that it cannot hang: review the rewritten command"
	return out, nil
}

// MakeLogDir creates the directory of the job logs the rewritten command
// writes (mode 0700), if it has any. Decide itself has no side effects.
func (o *Outcome) MakeLogDir() error {
	if len(o.Logs) == 0 {
		return nil
	}
	dir := filepath.Dir(o.Logs[0])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// Under a project's directory the logs must never be committed.
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); os.IsNotExist(err) {
		os.WriteFile(ignore, []byte("*\n"), 0o600)
	}
	return nil
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

// redirectJobs sends the output of every background job that still holds
// the caller's output to a log file of its own: `server & x` becomes
// `server >LOG 2>&1 & x`, and `A && B & x` (whose background subshell
// holds the output too) becomes `{ A && B; } >LOG 2>&1 & x`. Jobs inside
// `bash -c` strings or without an & cannot be rewritten: an error then.
func redirectJobs(src []byte, opt Options) ([]byte, []string, error) {
	res, err := analyze.Run(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, nil, err
	}
	var edits []analyze.Edit
	var logs []string
	dir := opt.LogDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "shguard-jobs")
	}
	if dir, err = filepath.Abs(dir); err != nil { // the command may cd
		return nil, nil, err
	}
	for _, j := range res.Jobs {
		if !j.HoldsOutput || j.Resolved {
			continue
		}
		if j.Amp < 0 {
			return nil, nil, errors.New("a background job inside a coprocess, a nested string that is not simply quoted, or a string of a string holds the output")
		}
		log, err := logName(dir)
		if err != nil {
			return nil, nil, err
		}
		if j.Quote != 0 && quote(log) != log {
			return nil, nil, errors.New("the log path cannot be written inside the quoted string")
		}
		logs = append(logs, log)
		redir := ">" + quote(log) + " 2>&1 "
		if j.List {
			end := j.Amp
			for end > j.Start && (src[end-1] == ' ' || src[end-1] == '\t') {
				end--
			}
			edits = append(edits,
				analyze.Edit{Start: j.Start, End: j.Start, New: "{ "},
				analyze.Edit{Start: end, End: j.Amp, New: "; } " + redir})
		} else {
			edits = append(edits, analyze.Edit{Start: j.Amp, End: j.Amp, New: redir})
		}
	}
	if len(edits) == 0 {
		return nil, nil, errors.New("no background job to redirect")
	}
	out, err := rewrite.Apply(src, edits)
	if err != nil {
		return nil, nil, err
	}
	if fs, err := analyze.Analyze(out, opt.analyzeOpts()...); err != nil || analyze.Verdict(fs) == analyze.Error {
		return nil, nil, errors.New("the output would still be held")
	}
	return out, logs, nil
}

// wrap reports whether redirections on the statement would not apply to
// all of it: in `A && B >f &`, `a | b >f &`, `time a >f &` and `! a >f &`
// they belong to the last command only.
func wrap(s *syntax.Stmt) bool {
	switch s.Cmd.(type) {
	case *syntax.BinaryCmd, *syntax.TimeClause:
		return true
	}
	return s.Negated
}

// logName picks a fresh log file name (math/rand/v2 is seeded by the
// runtime; crypto/rand would cost the hook's start-up more than it gives).
func logName(dir string) (string, error) {
	return filepath.Join(dir, fmt.Sprintf("job-%012x.log", rand.Uint64()&(1<<48-1))), nil
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
