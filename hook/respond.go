package hook

import (
	"errors"
	"strings"

	"github.com/shguard/shguard/analyze"
)

// Request is one shell tool call in the neutral shape every adapter
// produces from its agent's payload.
type Request struct {
	Command string
	// Cwd is the directory the agent runs the command in ("" unknown):
	// the caller finds the project's .shguardrc from it.
	Cwd string
	// InBackground: the call already runs in the agent's background mode,
	// where nothing it starts can hold the tool.
	InBackground bool
	// Shell is the shell program the agent runs the command with, and
	// ShellFrom where that came from ("$SHELL"); "" when the agent always
	// runs bash.
	Shell, ShellFrom string
}

// Caps says which answers an agent honours for a shell call, and how it
// applies them.
type Caps struct {
	// Ask: it can stop and ask the user to confirm, and someone is there
	// to answer (not a headless run: Claude Code's -p turns "ask" into a
	// refusal, Gemini CLI's -p waits for ever).
	Ask bool
	// Rewrite: it runs a changed command the hook hands back.
	Rewrite bool
	// Silent: it applies a changed command without a permission decision
	// from the hook, and its own approval then judges the changed command
	// as it would have judged the original (Gemini CLI's tool_input with
	// no decision, Crush's updated_input, Cline's overrideInput,
	// OpenCode's args, Codex's allow + updatedInput, whose approvals are a
	// separate event). Such a change adds no prompt and removes none.
	Silent bool
	// Background: it can run the command in its own background mode, and
	// BackgroundParam names that mode for the model ("run_in_background").
	Background      bool
	BackgroundParam string
	// GroupKilled: it kills the tool's process group when the command
	// returns (Codex 0.171, measured end to end: a server left in the
	// group by `bash -c "srv & …"` stops answering once the call
	// returned), so a job meant to run on needs a group of its own.
	GroupKilled bool
	// Permitted reports whether the command as the model wrote it would
	// have run without a prompt under the agent's own permission rules and
	// mode; only then is a change approved ("allow") where the agent
	// needs a decision to apply it (Claude Code). nil: never.
	Permitted func(cmd string) bool
}

// Kind is what the neutral answer does.
type Kind int

const (
	Pass   Kind = iota // run the command as it came (Context may advise)
	Change             // run Answer.Command instead
	Refuse             // do not run it; Reason tells the model what to run
)

// Answer is the neutral answer an adapter renders in its agent's shape.
type Answer struct {
	Kind    Kind
	Command string
	// Background: run Command in the agent's background mode.
	Background bool
	// Approve: run the change without a prompt; otherwise the user
	// confirms it.
	Approve bool
	// Reason is shown in the prompt (Change) or to the model (Refuse).
	Reason string
	// Context is advice for the model, where the agent passes it on.
	Context string
	// Logs are the log files the changed command writes (the caller
	// creates their directory).
	Logs []string
}

// Respond decides for one call and chooses the answer the agent applies
// the way it would have treated the command as written (design.md, "Its
// answer policy"):
//   - a change that is needed (the command would hang, or never ends in
//     the foreground) is applied silently where the agent can apply it
//     without a decision (Caps.Silent) or where the original would have
//     run without a prompt (Caps.Permitted: "allow"); shown to the user
//     ("ask") only where the original would have prompted anyway and
//     someone can answer; else refused with the exact command to run
//     instead — never an answer the agent ignores and so fails open;
//   - a command that only leaks runs unchanged, with advice.
func Respond(req Request, caps Caps, opt Options) (Answer, error) {
	if req.InBackground || strings.TrimSpace(req.Command) == "" {
		return Answer{}, nil
	}
	opt.Background, opt.BackgroundParam, opt.GroupKilled = caps.Background, caps.BackgroundParam, caps.GroupKilled
	out, err := Decide(req.Command, opt)
	if err != nil {
		var pe *analyze.ParseError
		if errors.As(err, &pe) {
			return Answer{}, nil // not shell: let the shell say so
		}
		return Answer{}, err
	}
	ctx := out.Context
	if ctx != "" && !out.Changed && forever(out.Findings) {
		ctx += "\n" + serverAdvice(caps)
	}
	if ctx != "" {
		ctx += "\n(analysed as " + opt.Lang.String() + ", the shell that runs the command"
		if req.ShellFrom != "" {
			ctx += ", from " + req.ShellFrom
		}
		ctx += ")"
	}
	switch {
	case out.Deny != "":
		return Answer{Kind: Refuse, Reason: out.Deny, Context: ctx, Logs: out.Logs}, nil
	case !out.Changed || !out.Hang && !out.Forever:
		return Answer{Kind: Pass, Context: ctx}, nil
	}
	// Only now, for a needed change: the agent's rules may take reading
	// its settings files, which a clean command must not pay for.
	approve := caps.Rewrite && caps.Permitted != nil && caps.Permitted(req.Command)
	if approve || caps.Rewrite && (caps.Silent || caps.Ask) {
		return Answer{Kind: Change, Command: out.Command, Background: out.Background, Approve: approve, Reason: out.Reason, Context: ctx, Logs: out.Logs}, nil
	}
	return Answer{Kind: Refuse, Reason: runInstead(out, req.Command, caps, opt), Context: ctx, Logs: out.Logs}, nil
}

// serverAdvice says how to start a foreground server in this agent, so
// that the tool call does not sit until its timeout.
func serverAdvice(caps Caps) string {
	if caps.Background && caps.BackgroundParam != "" {
		return "In this agent: run the server as its own call with " + caps.BackgroundParam + ": true, then check it (curl, its output) in the next calls."
	}
	return "In this agent: start the server with its output sent to a file and a trailing & (`cmd >server.log 2>&1 &`), then read the file and probe it in the next calls; stop it with kill when done."
}

func hasRule(fs []analyze.Finding, id string) bool {
	for _, f := range fs {
		if f.Rule == id {
			return true
		}
	}
	return false
}
