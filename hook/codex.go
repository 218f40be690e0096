package hook

import (
	"encoding/json"
	"fmt"
)

// Codex is OpenAI Codex CLI's PreToolUse protocol. Sources:
// openai/codex@0082977c:codex-rs/hooks/src/events/pre_tool_use.rs and
// openai/codex@3be4afd3:codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json.
//
// The payload is Claude Code's with "turn_id" and "model" added, and
// tool_input holds only "command". The answer is Claude's envelope, but
// Codex cannot ask: "ask" and a bare "allow" fail open (the command
// runs). So a command that would hang is refused with a reason naming
// the exact command to run instead, which the model then runs through
// Codex's own approval; only with --allow under permission_mode
// bypassPermissions (where nothing is asked anyway) is the rewrite
// applied directly (allow + updatedInput). A deny needs a non-empty
// reason, which it always has. Errors exit 1 ("failed", the command
// runs); exit 2 would block.
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
	mode := in.PermissionMode
	return &Call{
		Request: Request{Command: cmd, Cwd: in.Cwd},
		Caps: Caps{
			Rewrite:   true,
			Permitted: func(string) bool { return mode == "bypassPermissions" },
		},
		Render: func(a Answer) ([]byte, error) {
			if a.Kind == Change && !a.Approve {
				return nil, fmt.Errorf("codex cannot ask") // Respond never does this: Caps.Ask is false
			}
			return claudeAnswer(in.ToolInput, a)
		},
	}, nil
}
