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
// "cmd", a string or an array); VS Code extension: {"hookName":
// "PreToolUse", "preToolUse": {"toolName": "execute_command",
// "parameters": {"command": "..."}}}. Several commands are judged as
// one script, one per line. Out: {"cancel": true, "errorMessage": "..."}
// to refuse (with the command to run instead), {"cancel": false,
// "contextModification": "...", "context": "..."} for advice. The
// extension ignores overrideInput and the SDK's review flag does not
// show a rewrite, so nothing is rewritten. A non-zero exit without JSON
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
			Name  string                     `json:"name"`
			Input map[string]json.RawMessage `json:"input"`
		} `json:"tool_call"`
		PreToolUse *struct {
			ToolName   string                     `json:"toolName"`
			Parameters map[string]json.RawMessage `json:"parameters"`
		} `json:"preToolUse"`
		WorkspaceRoots []string `json:"workspaceRoots"`
	}
	if err := decode(payload, &in, "Cline hook"); err != nil {
		return nil, err
	}
	var args map[string]json.RawMessage
	switch {
	case in.ToolCall != nil && in.ToolCall.Name == "run_commands":
		args = in.ToolCall.Input
	case in.PreToolUse != nil && (in.PreToolUse.ToolName == "execute_command" || in.PreToolUse.ToolName == "run_commands"):
		args = in.PreToolUse.Parameters
	default:
		return nil, nil
	}
	var cmds []string
	for _, k := range []string{"commands", "command", "cmd"} {
		raw, ok := args[k]
		if !ok {
			continue
		}
		var one string
		if json.Unmarshal(raw, &one) == nil {
			cmds = append(cmds, one)
		} else if json.Unmarshal(raw, &cmds) != nil {
			return nil, errors.New(`hook input: "` + k + `" is neither a string nor an array of strings`)
		}
		break
	}
	if len(cmds) == 0 {
		return nil, errors.New(`hook input: the command tool call has no "commands"`)
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
