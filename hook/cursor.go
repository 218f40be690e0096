package hook

// Cursor: beforeShellExecution, the command at the top level. Source:
// cursor.com/docs/agent/hooks (../../shared/agents.md).
//
// No rewrite is documented for this event, and "ask" is ignored in
// auto-review, so a command that would hang is denied with agent_message
// (what the model sees) holding the exact command to run instead. A
// command that only leaks gets no answer (no opinion): Cursor has no
// channel for advice that does not also decide.
var _ = register(&Protocol{
	Name: "cursor", Agent: "Cursor beforeShellExecution", BadInputExit: 1,
	detect: func(p payload) bool {
		return p.str("hook_event_name") == "beforeShellExecution" || p.has("command") && (p.has("conversation_id") || p.has("workspace_roots"))
	},
	answer: func(p payload, opt Options) (*Answer, error) {
		if ev := p.str("hook_event_name"); ev != "" && ev != "beforeShellExecution" {
			return &Answer{}, nil
		}
		cmd, err := commandOf(p, "command", "beforeShellExecution input")
		if err != nil {
			return nil, err
		}
		opt = opt.forAgent(p.str("cwd"), "SHELL")
		opt.NoBackground = true
		out, err := decide(cmd, opt)
		if err != nil || out == nil || !out.Changed && out.Deny == "" {
			return &Answer{Outcome: out}, err
		}
		return answerJSON(map[string]string{
			"permission":    "deny",
			"user_message":  "shguard: this command would hang the agent; it was told what to run instead",
			"agent_message": insteadText(out),
		}, out)
	},
})
