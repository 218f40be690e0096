package hook

// Crush: PreToolUse with "event" (not hook_event_name) and tool_name
// "bash". Sources: charmbracelet/crush docs/hooks/README.md,
// internal/hooks/input.go, internal/hooks/runner.go,
// internal/agent/tools/bash.go (../../shared/agents.md).
//
// updated_input is a shallow-merge patch that Crush applies unless the
// answer denies; decision null leaves the user's normal permission flow in
// charge, "allow" (with --allow) skips it. A lone background job moves to
// run_in_background. context reaches the model.
var _ = register(&Protocol{
	Name: "crush", Agent: "Crush PreToolUse", BadInputExit: 1,
	detect: func(p payload) bool { return p.has("event") && !p.has("hook_event_name") },
	answer: func(p payload, opt Options) (*Answer, error) {
		if p.str("event") != "PreToolUse" || p.str("tool_name") != "bash" {
			return &Answer{}, nil
		}
		in := p.object("tool_input")
		cmd, err := commandOf(in, "command", "bash tool_input")
		if err != nil {
			return nil, err
		}
		opt = opt.forAgent(p.str("cwd"), "SHELL")
		opt.BackgroundParam = "run_in_background: true"
		out, err := decide(cmd, opt)
		if err != nil || out == nil {
			return &Answer{}, err
		}
		ans := map[string]any{"version": 1, "decision": nil}
		switch {
		case out.Deny != "":
			ans["decision"], ans["reason"] = "deny", out.Deny
		case out.Changed:
			patch := map[string]any{"command": out.Command}
			if out.Background {
				patch["run_in_background"] = true
			}
			ans["updated_input"], ans["reason"] = patch, out.Reason
			if opt.Allow {
				ans["decision"] = "allow"
			}
			ans["context"] = withShell(out.Context, opt)
		case out.Context == "":
			return &Answer{Outcome: out}, nil
		default:
			ans["context"] = withShell(out.Context, opt)
		}
		return answerJSON(ans, out)
	},
})
