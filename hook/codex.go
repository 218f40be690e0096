package hook

import (
	"encoding/json"
)

// Codex is OpenAI Codex CLI's PreToolUse protocol. Sources:
// openai/codex@0082977c:codex-rs/hooks/src/events/pre_tool_use.rs and
// openai/codex@3be4afd3:codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json;
// Codex 0.171.0 driven end to end (../../shared/agents.md).
//
// The payload is Claude Code's with "turn_id" and "model" added, and
// tool_input holds only "command". The answer is Claude's envelope, but
// Codex cannot ask: "ask" and a bare "allow" fail open (the command
// runs). A change goes back as allow + updatedInput, the one form Codex
// takes for a rewrite; Codex's approvals are a separate hook event
// (PermissionRequest), so this rewrites the command and grants nothing:
// Codex's own approval and sandbox judge the changed command (Caps.Silent).
// When the command returns, Codex kills its process group: a job the
// rewrite leaves running gets a group of its own (Caps.GroupKilled).
// A deny needs a non-empty reason, which it always has. Errors exit 1
// ("failed", the command runs); exit 2 would block.
var Codex = &Protocol{
	Name: "codex", Agent: "Codex CLI", ErrorExit: 1,
	Parse:      parseCodex,
	DetectRule: `Claude's shape with "turn_id" (Codex adds turn_id and model)`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, turn := m["turn_id"]
		return turn && m["tool_input"] != nil
	},
}

func parseCodex(payload []byte, env Env) (*Call, error) {
	in, cmd, err := readToolCall(payload, "Codex CLI PreToolUse", "PreToolUse", "Bash")
	if in == nil || err != nil {
		return nil, err
	}
	return &Call{
		Request: Request{Command: cmd, Cwd: in.Cwd},
		Caps:    Caps{Rewrite: true, Silent: true, GroupKilled: true},
		Render: func(a Answer) ([]byte, error) {
			a.Approve = true // the only rewrite Codex takes; see above
			return claudeAnswer(in.ToolInput, a)
		},
	}, nil
}
