package hook

import (
	"encoding/json"
)

// Crush is Crush's PreToolUse hook. Sources: charmbracelet/crush@37f36e93:
// docs/hooks/README.md, internal/hooks/input.go, internal/agent/tools/bash.go;
// charmbracelet/crush@0388f5f4:internal/hooks/hooks.go (aggregate).
//
// In: {"event": "PreToolUse", "session_id", "cwd", "tool_name": "bash",
// "tool_input": {"command", "description", "working_dir",
// "run_in_background", "auto_background_after"}} — "event", not
// hook_event_name, and a lowercase tool name. Out: {"version": 1,
// "decision": "allow"|"deny" or none, "reason", "context",
// "updated_input": {...}}. updated_input is a shallow-merge patch applied
// also without a decision, which leaves Crush's normal permission
// prompt in place (Caps.Silent): it prompts for the changed command where
// it would have for the original. run_in_background takes a lone
// background job and a foreground server. Errors exit 1 (non-blocking); 2 blocks, 49 halts.
var Crush = &Protocol{
	Name: "crush", Agent: "Crush", ErrorExit: 1,
	Parse:      parseCrush,
	DetectRule: `"event" and "tool_name" without "hook_event_name"`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, ev := m["event"]
		_, tn := m["tool_name"]
		_, hk := m["hook_event_name"]
		return ev && tn && !hk
	},
}

func parseCrush(payload []byte, env Env) (*Call, error) {
	var in struct {
		Event     string                     `json:"event"`
		Cwd       string                     `json:"cwd"`
		ToolName  string                     `json:"tool_name"`
		ToolInput map[string]json.RawMessage `json:"tool_input"`
	}
	if err := decode(payload, &in, "Crush PreToolUse"); err != nil {
		return nil, err
	}
	if in.Event != "PreToolUse" || in.ToolName != "bash" {
		return nil, nil
	}
	cmd, err := command(in.ToolInput, "bash")
	if err != nil {
		return nil, err
	}
	cwd := in.Cwd
	if d := str(in.ToolInput, "working_dir"); d != "" {
		cwd = d
	}
	return &Call{
		Request: Request{Command: cmd, Cwd: cwd, InBackground: truthy(in.ToolInput, "run_in_background")},
		Caps:    Caps{Ask: true, Rewrite: true, Silent: true, Background: true, BackgroundParam: "run_in_background"},
		Render: func(a Answer) ([]byte, error) {
			out := map[string]any{"version": 1}
			if a.Context != "" {
				out["context"] = a.Context
			}
			switch a.Kind {
			case Refuse:
				out["decision"], out["reason"] = "deny", a.Reason
			case Change:
				patch := map[string]any{"command": a.Command}
				if a.Background {
					patch["run_in_background"] = true
				}
				out["updated_input"] = patch
			default:
				if a.Context == "" {
					return nil, nil
				}
			}
			return marshal(out)
		},
	}, nil
}
