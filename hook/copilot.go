package hook

import (
	"encoding/json"
	"fmt"
)

// GitHub Copilot CLI: preToolUse, toolName "bash", toolArgs a JSON string.
// Sources: github/docs content/copilot/reference/hooks-configuration.md,
// github/copilot-cli#2013, #2585, #2647 (../../shared/agents.md).
//
// Only deny is documented as processed, and any non-zero exit denies the
// tool: a command that would hang is denied with a reason holding the
// command to run instead, everything else gets no answer, and bad input
// exits 0 with a line on stderr.
var _ = register(&Protocol{
	Name: "copilot", Agent: "Copilot CLI preToolUse", BadInputExit: 0,
	detect: func(p payload) bool { return p.has("toolName") && p.has("toolArgs") },
	answer: func(p payload, opt Options) (*Answer, error) {
		if p.str("toolName") != "bash" {
			return &Answer{}, nil
		}
		var args payload
		if err := json.Unmarshal([]byte(p.str("toolArgs")), &args); err != nil {
			return nil, fmt.Errorf("hook input: toolArgs is not a JSON object in a string: %v", err)
		}
		cmd, err := commandOf(args, "command", "bash toolArgs")
		if err != nil {
			return nil, err
		}
		opt = opt.forAgent(p.str("cwd"), "SHELL")
		opt.NoBackground = true
		out, err := decide(cmd, opt)
		if err != nil || out == nil || !out.Changed && out.Deny == "" {
			return &Answer{Outcome: out}, err
		}
		return answerJSON(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": insteadText(out)}, out)
	},
})
