package hook

import (
	"encoding/json"
	"errors"
	"strings"
)

// Cline is Cline's PreToolUse file hook, in both shapes. Sources:
// cline/cline@21cb8d25: sdk/packages/core/src/hooks/hook-file-hooks.ts,
// sdk/packages/core/src/extensions/tools/schemas.ts,
// apps/vscode/src/core/hooks/hook-factory.ts,
// apps/vscode/src/sdk/hooks-adapter.ts.
//
// In, CLI/SDK: {"hookName": "tool_call", "tool_call": {"name":
// "run_commands", "input": {"commands": ["..."]}}} (also "command" or
// "cmd", a string, an array, or structured {"command", "args"} entries
// that run without a shell); VS Code extension: {"hookName":
// "PreToolUse", "preToolUse": {"toolName": "execute_command",
// "parameters": {"command": "..."}}}. Several commands are judged as
// one script, one per line. Out: {"cancel": true, "errorMessage": "..."}
// to refuse (with the command to run instead), {"cancel": false,
// "contextModification": "...", "context": "..."} for advice. The
// extension ignores overrideInput and the SDK's review flag does not
// show a rewrite, so nothing is rewritten. run_commands has no
// background parameter (schemas.ts), so a lone job gets a log file. A non-zero exit without JSON
// is logged and the tool proceeds; errors exit 0 all the same.
var Cline = &Protocol{
	Name: "cline", Agent: "Cline", ErrorExit: 0,
	Parse:      parseCline,
	DetectRule: `"hookName" with "tool_call" or "preToolUse"`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, h := m["hookName"]
		_, sdk := m["tool_call"]
		_, ext := m["preToolUse"]
		return h && (sdk || ext)
	},
}

func parseCline(payload []byte, env Env) (*Call, error) {
	var in struct {
		HookName string `json:"hookName"`
		ToolCall *struct {
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"tool_call"`
		PreToolUse *struct {
			ToolName   string          `json:"toolName"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"preToolUse"`
		WorkspaceRoots []string `json:"workspaceRoots"`
	}
	if err := decode(payload, &in, "Cline hook"); err != nil {
		return nil, err
	}
	var args json.RawMessage
	switch {
	case in.ToolCall != nil && in.ToolCall.Name == "run_commands":
		args = in.ToolCall.Input
	case in.PreToolUse != nil && (in.PreToolUse.ToolName == "execute_command" || in.PreToolUse.ToolName == "run_commands"):
		args = in.PreToolUse.Parameters
	default:
		return nil, nil
	}
	cmds, err := clineCommands(args)
	if err != nil {
		return nil, err
	}
	if len(cmds) == 0 {
		return nil, errors.New(`hook input: the command tool call has no command`)
	}
	c := &Call{Request: Request{Command: strings.Join(cmds, "\n")}}
	if len(in.WorkspaceRoots) > 0 {
		c.Cwd = in.WorkspaceRoots[0]
	}
	c.Render = func(a Answer) ([]byte, error) {
		switch {
		case a.Kind == Refuse:
			return marshal(map[string]any{"cancel": true, "errorMessage": a.Reason})
		case a.Context != "":
			return marshal(map[string]any{"cancel": false, "contextModification": a.Context, "context": a.Context})
		}
		return nil, nil
	}
	return c, nil
}

// clineCommands reads every form run_commands accepts
// (cline/cline@002c5d40 sdk/packages/core/src/extensions/tools/schemas.ts,
// RunCommandsInputUnionSchema): {"commands": [...]}, {"commands": one},
// {"command": "..."}, {"cmd": "..."}, an array, or one entry; an entry is
// a shell string or a structured {"command", "args"} that runs without a
// shell, judged here as its words quoted (so an & in it is a word).
func clineCommands(raw json.RawMessage) ([]string, error) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && obj != nil {
		for _, k := range []string{"commands", "command", "cmd"} {
			if v, ok := obj[k]; ok {
				if k == "command" {
					var s string
					if json.Unmarshal(v, &s) == nil {
						if _, structured := obj["args"]; structured {
							return clineEntries(raw) // {command, args}
						}
						return []string{s}, nil
					}
				}
				return clineEntries(v)
			}
		}
		return nil, errors.New(`hook input: the command tool call has no "commands"`)
	}
	return clineEntries(raw)
}

// clineEntries reads one entry or an array of entries.
func clineEntries(raw json.RawMessage) ([]string, error) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	var out []string
	for _, e := range list {
		var s string
		if json.Unmarshal(e, &s) == nil {
			out = append(out, s)
			continue
		}
		var st struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		if err := json.Unmarshal(e, &st); err != nil || st.Command == "" {
			return nil, errors.New("hook input: a command entry is neither a string nor {\"command\", \"args\"}")
		}
		words := []string{quote(st.Command)}
		for _, a := range st.Args {
			words = append(words, quote(a))
		}
		out = append(out, strings.Join(words, " "))
	}
	return out, nil
}
