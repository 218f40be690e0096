package hook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Cursor is Cursor's beforeShellExecution hook
// (https://cursor.com/docs/agent/hooks; Cursor is closed source).
//
// In: {"hook_event_name": "beforeShellExecution", "conversation_id",
// "generation_id", "workspace_roots", "command": "...", "cwd": "..."}.
// Out: {"permission": "allow"|"deny"|"ask", "user_message",
// "agent_message"}. No rewrite is documented for this event, and "ask"
// is ignored in auto-review (forum topic 173694), so a command that
// would hang is denied with an agent_message naming the command to run
// instead; advice alone is not sent (it would need a decision, and
// "allow" would skip the user's prompt). Errors exit 1 (fails open,
// unless the user set failClosed); exit 2 blocks.
var Cursor = &Protocol{
	Name: "cursor", Agent: "Cursor", ErrorExit: 1,
	Parse:      parseCursor,
	DetectRule: `hook_event_name "beforeShellExecution", or "command" with "conversation_id"/"workspace_roots"`,
	Detect: func(m map[string]json.RawMessage) bool {
		if str(m, "hook_event_name") == "beforeShellExecution" {
			return true
		}
		_, cmd := m["command"]
		_, conv := m["conversation_id"]
		_, roots := m["workspace_roots"]
		return cmd && (conv || roots)
	},
}

func parseCursor(payload []byte, env Env) (*Call, error) {
	m, err := object(payload, "Cursor beforeShellExecution")
	if err != nil {
		return nil, err
	}
	if ev := str(m, "hook_event_name"); ev != "" && ev != "beforeShellExecution" {
		return nil, nil
	}
	raw, ok := m["command"]
	if !ok {
		return nil, errors.New(`hook input: beforeShellExecution has no "command"`)
	}
	var cmd string
	if err := json.Unmarshal(raw, &cmd); err != nil {
		return nil, fmt.Errorf(`hook input: "command" is not a string: %v`, err)
	}
	return &Call{
		Request: Request{Command: cmd, Cwd: str(m, "cwd")},
		Render: func(a Answer) ([]byte, error) {
			if a.Kind != Refuse {
				return nil, nil
			}
			return marshal(map[string]string{
				"permission":    "deny",
				"user_message":  "shguard: this command would hang the agent's terminal; the agent was told what to run instead",
				"agent_message": a.Reason,
			})
		},
	}, nil
}
