package hook

import "encoding/json"

// Gemini CLI: BeforeTool on run_shell_command. Sources:
// google-gemini/gemini-cli docs/hooks/reference.md, hooks/hookRunner.ts,
// scheduler/scheduler.ts, tools/shell.ts (../../shared/agents.md).
//
// A change is answered with decision "ask" (or "allow" with --allow) and
// the complete new tool input in hookSpecificOutput.tool_input; a lone
// background job moves to is_background. BeforeTool has no context
// channel for the model: advice goes to the user as systemMessage. Exit
// 1 (with stderr) is the non-blocking error; 2 and up would deny.
var _ = register(&Protocol{
	Name: "gemini", Agent: "Gemini CLI BeforeTool", BadInputExit: 1,
	detect: func(p payload) bool {
		return p.str("hook_event_name") == "BeforeTool" || p.str("tool_name") == "run_shell_command"
	},
	answer: func(p payload, opt Options) (*Answer, error) {
		if ev := p.str("hook_event_name"); ev != "" && ev != "BeforeTool" || p.str("tool_name") != "run_shell_command" {
			return &Answer{}, nil
		}
		in := p.object("tool_input")
		cmd, err := commandOf(in, "command", "run_shell_command tool_input")
		if err != nil {
			return nil, err
		}
		opt = opt.forAgent(p.str("cwd"), "SHELL")
		opt.BackgroundParam = "is_background: true"
		out, err := decide(cmd, opt)
		if err != nil || out == nil {
			return &Answer{}, err
		}
		ans := map[string]any{}
		switch {
		case out.Deny != "":
			ans["decision"], ans["reason"] = "deny", out.Deny
		case out.Changed:
			ans["decision"], ans["reason"] = "ask", out.Reason
			if opt.Allow {
				ans["decision"] = "allow"
			}
			ans["systemMessage"] = out.Reason
			ans["hookSpecificOutput"] = map[string]any{
				"hookEventName": "BeforeTool",
				"tool_input":    map[string]json.RawMessage(copyInput(in, "command", out, "is_background")),
			}
		case out.Context == "":
			return &Answer{Outcome: out}, nil
		default:
			ans["systemMessage"] = withShell(out.Context, opt)
		}
		return answerJSON(ans, out)
	},
})
