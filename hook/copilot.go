package hook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Copilot is GitHub Copilot CLI's preToolUse hook. Sources:
// github/docs@1912b4fc:content/copilot/reference/hooks-configuration.md;
// github/copilot-cli issues #2013, #2585, #2647.
//
// In: {"timestamp", "cwd", "toolName": "bash", "toolArgs": "<JSON
// string>"} (toolArgs holds {"command", "description"}; an object is
// accepted too). Out: {"permissionDecision": "deny",
// "permissionDecisionReason": "..."}: the official page says only deny
// is processed, "ask" only works in newer versions, the rewrite field
// (modifiedArgs) and additionalContext are not official — so a command
// that would hang is denied with the command to run instead, and
// nothing else is sent. Any non-zero exit denies the tool ("hook
// errored"), so every error exits 0.
var Copilot = &Protocol{
	Name: "copilot", Agent: "GitHub Copilot CLI", ErrorExit: 0,
	Parse:      parseCopilot,
	DetectRule: `"toolName" and "toolArgs" (camelCase)`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, n := m["toolName"]
		_, a := m["toolArgs"]
		return n && a
	},
}

func parseCopilot(payload []byte, env Env) (*Call, error) {
	m, err := object(payload, "Copilot CLI preToolUse")
	if err != nil {
		return nil, err
	}
	if str(m, "toolName") != "bash" {
		return nil, nil
	}
	args := m["toolArgs"]
	var s string
	if json.Unmarshal(args, &s) == nil {
		args = json.RawMessage(s) // the documented form: a JSON string
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(args, &in); err != nil || in == nil {
		return nil, errors.New(`hook input: toolArgs is not a JSON object in a string`)
	}
	cmd, err := command(in, "bash")
	if err != nil {
		return nil, fmt.Errorf("%v (toolArgs)", err)
	}
	return &Call{
		Request: Request{Command: cmd, Cwd: str(m, "cwd")},
		Render: func(a Answer) ([]byte, error) {
			if a.Kind != Refuse {
				return nil, nil
			}
			return marshal(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": a.Reason})
		},
	}, nil
}
