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
// apps/vscode/src/sdk/hooks-adapter.ts; the Cline CLI 3.0.65 bundle
// (@cline/core dist/index.js, @cline/agents dist/index.js).
//
// In, CLI/SDK: {"hookName": "tool_call", "tool_call": {"name":
// "run_commands", "input": {"commands": ["..."]}}} (also "command" or
// "cmd", a string, an array, or structured {"command", "args"} entries
// that run without a shell); VS Code extension: {"hookName":
// "PreToolUse", "preToolUse": {"toolName": "execute_command",
// "parameters": {"command": "..."}}}. The CLI sends both shapes at once
// (and an empty clineVersion): tool_call decides. Several commands are
// judged as one script, one per line.
//
// What the CLI honours (its file-hook bridge keeps cancel, context and
// overrideInput; review is read and dropped): "cancel": true stops the
// whole run ("aborted by another client"), not the tool call, and the
// model never sees errorMessage. So the CLI gets no cancel:
// "overrideInput" replaces the tool's input before Cline's own approval
// (Caps.Silent), which takes a change, and a refusal is an input that
// prints the reason for the model and fails, which ends only the tool
// call. "context" reaches the model. The extension ignores overrideInput
// and maps cancel to stopping the task: there a command that would hang
// is cancelled, with errorMessage naming the command to run. run_commands
// has no background parameter: a lone job gets a log file, a foreground
// server a managed job. A non-zero exit without JSON is logged and the
// tool proceeds; errors exit 0 all the same.
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
	cli := false
	switch {
	case in.ToolCall != nil && in.ToolCall.Name == "run_commands":
		args, cli = in.ToolCall.Input, true
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
	if cli {
		c.Caps = Caps{Rewrite: true, Silent: true}
	}
	c.Render = func(a Answer) ([]byte, error) {
		out := map[string]any{"cancel": false}
		if a.Context != "" {
			out["contextModification"], out["context"] = a.Context, a.Context
		}
		switch {
		case a.Kind == Refuse && !cli:
			return marshal(map[string]any{"cancel": true, "errorMessage": a.Reason})
		case a.Kind == Refuse:
			// Ends the tool call, not the run: the model reads the reason
			// as the command's output.
			out["overrideInput"] = clineInput(args, "printf '%s\\n' "+quote(a.Reason)+" >&2; exit 1")
		case a.Kind == Change:
			out["overrideInput"] = clineInput(args, a.Command)
		case a.Context == "":
			return nil, nil
		}
		return marshal(out)
	}
	return c, nil
}

// clineInput is the run_commands input that runs cmd in place of the
// commands of in: in's other fields are kept, its command fields replaced
// by {"commands": [cmd]}.
func clineInput(in json.RawMessage, cmd string) map[string]any {
	out := map[string]any{}
	var obj map[string]json.RawMessage
	if json.Unmarshal(in, &obj) == nil {
		for k, v := range obj {
			switch k {
			case "commands", "command", "cmd", "args":
			default:
				out[k] = v
			}
		}
	}
	out["commands"] = []string{cmd}
	return out
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
