package hook

import (
	"encoding/json"
	"path/filepath"

	"github.com/shguard/shguard/analyze"
)

// Claude Code: PreToolUse on the Bash tool. Sources: the hook reference
// (code.claude.com/docs/en/hooks) and ../../shared/agents.md.
//
//   - Only hook_event_name "PreToolUse" is answered (an older payload
//     without the field is taken as one).
//   - The shell is CLAUDE_CODE_SHELL, else $SHELL (what Claude Code runs),
//     unless --shell says; the answer's context names it.
//   - Job logs go under the payload's cwd (.shguard/jobs, with a .gitignore
//     of its own): Claude Code's sandbox lets a command write in the
//     working directory, not necessarily in /tmp.
//   - CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: there is no run_in_background.
//   - permission_mode dontAsk or bypassPermissions: nobody is asked, so a
//     change is allowed (only where the command as written would have run
//     without a prompt, see claudePermissions) or refused with what to
//     run instead; never "ask".
//   - --allow approves a change only where the command as written would
//     have run without a prompt under the user's permission rules.
var claudeProtocol = register(&Protocol{
	Name: "claude", Agent: "Claude Code PreToolUse", BadInputExit: 1,
	detect: func(p payload) bool {
		return p.has("tool_name") && (p.str("hook_event_name") != "" || p.has("tool_input")) && !p.has("turn_id")
	},
	answer: answerClaude,
})

// Claude answers one Claude Code PreToolUse payload (see claudeProtocol).
func Claude(raw []byte, opt Options) ([]byte, error) {
	a, err := claudeProtocol.Handle(raw, opt)
	if err != nil {
		return nil, err
	}
	return a.Stdout, nil
}

func answerClaude(p payload, opt Options) (*Answer, error) {
	if ev := p.str("hook_event_name"); ev != "" && ev != "PreToolUse" {
		return &Answer{}, nil
	}
	if p.str("tool_name") != "Bash" {
		return &Answer{}, nil
	}
	in := p.object("tool_input")
	cmd, err := commandOf(in, "command", "Bash tool_input")
	if err != nil {
		return nil, err
	}
	cwd := p.str("cwd")
	opt = opt.forAgent(cwd, "CLAUDE_CODE_SHELL", "SHELL")
	if opt.getenv("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS") != "" {
		opt.NoBackground = true
	} else {
		opt.BackgroundParam = "run_in_background: true"
	}
	if opt.LogDir == "" && cwd != "" {
		opt.LogDir = filepath.Join(cwd, ".shguard", "jobs")
	}
	out, err := decide(cmd, opt)
	if err != nil || out == nil {
		return &Answer{}, err
	}
	mode := p.str("permission_mode")
	type specific struct {
		HookEventName            string                     `json:"hookEventName"`
		PermissionDecision       string                     `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string                     `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
		AdditionalContext        string                     `json:"additionalContext,omitempty"`
	}
	sp := specific{HookEventName: "PreToolUse", AdditionalContext: withShell(out.Context, opt)}
	switch {
	case out.Deny != "":
		sp.PermissionDecision, sp.PermissionDecisionReason = "deny", out.Deny
	case out.Changed:
		permitted := mode == "bypassPermissions" || opt.Allow && loadClaudePermissions(cwd, opt).allows(cmd, opt.Lang)
		switch {
		case permitted && (opt.Allow || nobodyAsked(mode)):
			sp.PermissionDecision, sp.PermissionDecisionReason = "allow", out.Reason
		case nobodyAsked(mode):
			sp.PermissionDecision, sp.PermissionDecisionReason = "deny", insteadText(out)
			sp.AdditionalContext = ""
			return answerJSON(map[string]any{"hookSpecificOutput": sp}, out)
		default:
			sp.PermissionDecision, sp.PermissionDecisionReason = "ask", out.Reason
		}
		sp.UpdatedInput = copyInput(in, "command", out, "run_in_background")
	case out.Context == "":
		return &Answer{Outcome: out}, nil
	}
	return answerJSON(map[string]any{"hookSpecificOutput": sp}, out)
}

func answerJSON(v any, out *Outcome) (*Answer, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return &Answer{Stdout: b, Outcome: out}, nil
}

// withShell adds which shell the analysis assumed to a context text.
func withShell(ctx string, opt Options) string {
	if ctx == "" {
		return ""
	}
	return ctx + "\n(analysed as " + opt.Lang.String() + ", the shell that runs the command)"
}

var _ = analyze.LangBash
