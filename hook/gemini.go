package hook

import (
	"encoding/json"
	"path/filepath"
)

// Gemini is Gemini CLI's BeforeTool protocol. Sources:
// google-gemini/gemini-cli@5411f113: docs/hooks/reference.md,
// packages/core/src/hooks/types.ts, hooks/hookRunner.ts,
// scheduler/scheduler.ts, tools/shell.ts.
//
// In: {"hook_event_name": "BeforeTool", "cwd": "...", "tool_name":
// "run_shell_command", "tool_input": {"command", "description",
// "dir_path", "is_background"}}. Out: a top-level "decision" ("ask"
// forces the confirmation prompt, "deny" sends "reason" to the model,
// "allow" skips it) and hookSpecificOutput.tool_input, which the
// scheduler builds the tool from: the complete input goes back, not a
// patch. A change is sent as tool_input with no decision: Gemini then
// applies its own approval to the changed command (Caps.Silent).
// Never "ask": Gemini CLI 0.61 forces the prompt even under --yolo, and
// `gemini -p` then waits for ever; the payload does not say whether
// anyone is there. BeforeTool has no model-context channel, so advice
// is not sent. is_background is not used, although Gemini applies it
// from a hook: driven end to end (Gemini CLI 0.61, `gemini -p`), what it
// runs in the background (its wrapper shell, a subshell and the command)
// keeps running after Gemini exits, recorded nowhere. So a lone job gets
// a log file and its pid recorded, a foreground server a managed job
// (job.go), like an agent without a background mode. Exit codes: 1 is a
// warning and the command runs; 2 and above deny. So errors exit 1.
var Gemini = &Protocol{
	Name: "gemini", Agent: "Gemini CLI", ErrorExit: 1,
	Parse:      parseGemini,
	DetectRule: `hook_event_name "BeforeTool" or tool_name "run_shell_command"`,
	Detect: func(m map[string]json.RawMessage) bool {
		return str(m, "hook_event_name") == "BeforeTool" || str(m, "tool_name") == "run_shell_command"
	},
}

func parseGemini(payload []byte, env Env) (*Call, error) {
	in, cmd, err := readToolCall(payload, "Gemini CLI BeforeTool", "BeforeTool", "run_shell_command")
	if in == nil || err != nil {
		return nil, err
	}
	cwd := in.Cwd
	if d := str(in.ToolInput, "dir_path"); d != "" {
		if filepath.IsAbs(d) || cwd == "" {
			cwd = d
		} else {
			cwd = filepath.Join(cwd, d)
		}
	}
	return &Call{
		Request: Request{Command: cmd, Cwd: cwd, InBackground: truthy(in.ToolInput, "is_background")},
		Caps:    Caps{Rewrite: true, Silent: true},
		Render: func(a Answer) ([]byte, error) {
			type specific struct {
				HookEventName string                     `json:"hookEventName"`
				ToolInput     map[string]json.RawMessage `json:"tool_input"`
			}
			out := struct {
				Decision      string    `json:"decision,omitempty"`
				Reason        string    `json:"reason,omitempty"`
				SystemMessage string    `json:"systemMessage,omitempty"`
				Specific      *specific `json:"hookSpecificOutput,omitempty"`
			}{}
			switch a.Kind {
			case Refuse:
				out.Decision, out.Reason = "deny", a.Reason
			case Change:
				out.SystemMessage = a.Reason // to the user; no decision
				out.Specific = &specific{"BeforeTool", withCommand(in.ToolInput, a.Command, "is_background", a.Background)}
			default:
				return nil, nil
			}
			return marshal(out)
		},
	}, nil
}
