package hook

// Codex CLI: PreToolUse on Bash, Claude's envelope. Sources:
// openai/codex codex-rs/hooks/src/events/pre_tool_use.rs and the
// generated input/output schemas (../../shared/agents.md).
//
// Codex cannot ask: "ask" and a bare "allow" fail open (the command runs).
// So a command that would hang gets either its rewrite as allow +
// updatedInput (with --allow, which approves it) or a deny whose reason
// holds the exact command to run instead. There is no background
// parameter in its tool input. additionalContext reaches the model.
var _ = register(&Protocol{
	Name: "codex", Agent: "Codex CLI PreToolUse", BadInputExit: 1,
	detect: func(p payload) bool {
		return p.str("hook_event_name") == "PreToolUse" && (p.has("turn_id") || p.has("model"))
	},
	answer: func(p payload, opt Options) (*Answer, error) {
		if p.str("hook_event_name") != "PreToolUse" || p.str("tool_name") != "Bash" {
			return &Answer{}, nil
		}
		in := p.object("tool_input")
		cmd, err := commandOf(in, "command", "Bash tool_input")
		if err != nil {
			return nil, err
		}
		opt = opt.forAgent(p.str("cwd"), "SHELL")
		opt.NoBackground = true
		out, err := decide(cmd, opt)
		if err != nil || out == nil {
			return &Answer{}, err
		}
		type specific struct {
			HookEventName            string            `json:"hookEventName"`
			PermissionDecision       string            `json:"permissionDecision,omitempty"`
			PermissionDecisionReason string            `json:"permissionDecisionReason,omitempty"`
			UpdatedInput             map[string]string `json:"updatedInput,omitempty"`
			AdditionalContext        string            `json:"additionalContext,omitempty"`
		}
		sp := specific{HookEventName: "PreToolUse", AdditionalContext: withShell(out.Context, opt)}
		switch {
		case out.Changed && opt.Allow && out.Deny == "":
			sp.PermissionDecision, sp.PermissionDecisionReason = "allow", out.Reason
			sp.UpdatedInput = map[string]string{"command": out.Command}
		case out.Changed || out.Deny != "":
			sp.PermissionDecision, sp.PermissionDecisionReason = "deny", insteadText(out)
			sp.AdditionalContext = ""
		case out.Context == "":
			return &Answer{Outcome: out}, nil
		}
		return answerJSON(map[string]any{"hookSpecificOutput": sp}, out)
	},
})
