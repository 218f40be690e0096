package hook

import (
	"encoding/json"
	"fmt"
)

// Cline: a PreToolUse hook file. Sources: cline/cline
// .clinerules/hooks/README.md, sdk/packages/core/src/hooks/hook-file-hooks.ts,
// sdk/packages/core/src/extensions/tools/schemas.ts,
// apps/vscode/src/sdk/hooks-adapter.ts (../../shared/agents.md).
//
// Two shapes: the SDK/CLI's {"hookName":"tool_call","tool_call":{"name":
// "run_commands","input":{"commands":[…]}}} and the extension's
// {"hookName":"PreToolUse","preToolUse":{"toolName":"execute_command",
// "parameters":{"command":"…"}}}. A command that would hang is cancelled
// with errorMessage holding what to run instead; advice goes in
// contextModification. Valid JSON is honoured whatever the exit status;
// bad input exits 0.
var _ = register(&Protocol{
	Name: "cline", Agent: "Cline PreToolUse", BadInputExit: 0,
	detect: func(p payload) bool { return p.has("hookName") || p.has("tool_call") || p.has("preToolUse") },
	answer: func(p payload, opt Options) (*Answer, error) {
		cmds, err := clineCommands(p)
		if err != nil || len(cmds) == 0 {
			return &Answer{}, err
		}
		opt = opt.forAgent("", "SHELL")
		opt.NoBackground = true
		var ctx, deny string
		var last *Outcome
		for _, cmd := range cmds {
			out, err := decide(cmd, opt)
			if err != nil {
				return nil, err
			}
			if out == nil {
				continue
			}
			last = out
			if out.Changed || out.Deny != "" {
				deny = insteadText(out)
				break
			}
			if out.Context != "" {
				ctx = withShell(out.Context, opt)
			}
		}
		switch {
		case deny != "":
			return answerJSON(map[string]any{"cancel": true, "errorMessage": deny}, last)
		case ctx != "":
			return answerJSON(map[string]any{"cancel": false, "contextModification": ctx}, last)
		}
		return &Answer{Outcome: last}, nil
	},
})

// clineCommands reads the shell commands of either payload shape; none
// for another tool.
func clineCommands(p payload) ([]string, error) {
	if tc := p.object("tool_call"); tc != nil {
		if tc.str("name") != "run_commands" {
			return nil, nil
		}
		in := tc.object("input")
		var list []string
		if raw, ok := in["commands"]; ok {
			if json.Unmarshal(raw, &list) != nil {
				var one string
				if err := json.Unmarshal(raw, &one); err != nil {
					return nil, fmt.Errorf("hook input: run_commands commands is neither a string nor a list of strings")
				}
				list = []string{one}
			}
			return list, nil
		}
		for _, k := range []string{"command", "cmd"} {
			if in.has(k) {
				c, err := commandOf(in, k, "run_commands input")
				return []string{c}, err
			}
		}
		return nil, fmt.Errorf("hook input: run_commands input has no commands")
	}
	if pre := p.object("preToolUse"); pre != nil {
		if n := pre.str("toolName"); n != "execute_command" && n != "run_commands" {
			return nil, nil
		}
		c, err := commandOf(pre.object("parameters"), "command", "execute_command parameters")
		return []string{c}, err
	}
	return nil, fmt.Errorf("hook input: neither tool_call nor preToolUse")
}
