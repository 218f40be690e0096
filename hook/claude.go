package hook

import (
	"encoding/json"
)

// Claude is Claude Code's PreToolUse protocol
// (https://code.claude.com/docs/en/hooks; payloads in testdata/claude):
//
//	{"hook_event_name": "PreToolUse", "permission_mode": "default", "cwd": "...",
//	 "tool_name": "Bash", "tool_input": {"command": "...", "run_in_background": false, ...}}
//
// in, and out nothing (the call goes ahead) or
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "ask"|"allow"|"deny", "permissionDecisionReason": "...",
//	  "updatedInput": {...every field of tool_input...}, "additionalContext": "..."}}
//
// What it honours decides the answer:
//   - only PreToolUse is answered (a hook registered for other events
//     gets nothing back);
//   - a change is approved ("allow") where the user's own rules and
//     mode would have run the command as written without a prompt
//     (claude_rules.go); else asked about where someone can answer, else
//     refused with the command to run instead — never "ask" where nobody
//     answers: permission_mode dontAsk and bypassPermissions, and a
//     headless run (CLAUDE_CODE_ENTRYPOINT sdk-cli for `claude -p`,
//     sdk-ts and sdk-py for the Agent SDKs, which Claude Code sets in its
//     own environment and its hooks inherit): there "ask" becomes a
//     refusal written for a human reviewer, and the model reads it;
//   - the command runs in CLAUDE_CODE_SHELL, else $SHELL (zsh on macOS):
//     that shell is analysed, and the context says so;
//   - run_in_background takes a lone background job, unless
//     CLAUDE_CODE_DISABLE_BACKGROUND_TASKS is set;
//
// updatedInput replaces the whole tool input, so every field the hook
// does not change is copied as it came. Errors exit 1: exit 2 would block.
var Claude = &Protocol{
	Name: "claude", Agent: "Claude Code", ErrorExit: 1,
	Parse:      parseClaude,
	DetectRule: `"tool_name" and "tool_input" (Claude Code's PreToolUse shape)`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, t := m["tool_name"]
		_, i := m["tool_input"]
		return t && i
	},
}

// claudeInput is the part of Claude Code's (and Codex's) payload read.
type claudeInput struct {
	HookEventName, PermissionMode, Cwd, ToolName string
	ToolInput                                    map[string]json.RawMessage
}

// readToolCall reads a payload of the hook_event_name/tool_name/tool_input
// shape that Claude Code, Codex and Gemini CLI share, field by field from
// the decoded object (see object). A nil input and nil error: another
// event or tool (a missing event name counts as event).
func readToolCall(payload []byte, what, event, tool string) (*claudeInput, string, error) {
	m, err := object(payload, what)
	if err != nil {
		return nil, "", err
	}
	var in claudeInput
	for _, f := range []struct {
		key string
		v   any
	}{
		{"hook_event_name", &in.HookEventName}, {"permission_mode", &in.PermissionMode},
		{"cwd", &in.Cwd}, {"tool_name", &in.ToolName}, {"tool_input", &in.ToolInput},
	} {
		if err := field(m, f.key, f.v); err != nil {
			return nil, "", notObject(what, err)
		}
	}
	if in.HookEventName != "" && in.HookEventName != event || in.ToolName != tool {
		return nil, "", nil
	}
	cmd, err := command(in.ToolInput, tool)
	if err != nil {
		return nil, "", err
	}
	return &in, cmd, nil
}

func parseClaude(payload []byte, env Env) (*Call, error) {
	in, cmd, err := readToolCall(payload, "Claude Code PreToolUse", "PreToolUse", "Bash")
	if in == nil || err != nil {
		return nil, err
	}
	c := &Call{Request: Request{Command: cmd, Cwd: in.Cwd, InBackground: truthy(in.ToolInput, "run_in_background")}}
	for _, v := range []string{"CLAUDE_CODE_SHELL", "SHELL"} {
		if sh := env.getenv(v); sh != "" {
			c.Shell, c.ShellFrom = sh, v
			break
		}
	}
	noOneAsked := in.PermissionMode == "dontAsk" || in.PermissionMode == "bypassPermissions" || claudeHeadless(env)
	c.Caps = Caps{
		Ask: !noOneAsked, Rewrite: true,
		Background:      !envTrue(env.getenv("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS")),
		BackgroundParam: "run_in_background",
		Permitted: func(cmd string) bool {
			project := env.getenv("CLAUDE_PROJECT_DIR")
			if project == "" {
				project = in.Cwd
			}
			rules := loadClaudeRules(env, project)
			return rules.permits(cmd, in.PermissionMode)
		},
	}
	c.Render = func(a Answer) ([]byte, error) { return claudeAnswer(in.ToolInput, a) }
	return c, nil
}

// claudeHeadless reports whether Claude Code runs without anyone at a
// prompt: `claude -p` sets CLAUDE_CODE_ENTRYPOINT=sdk-cli, the Agent
// SDKs sdk-ts and sdk-py (their host may answer through canUseTool, but
// nothing in the payload says it does, so nobody is assumed).
func claudeHeadless(env Env) bool {
	switch env.getenv("CLAUDE_CODE_ENTRYPOINT") {
	case "sdk-cli", "sdk-ts", "sdk-py":
		return true
	}
	return false
}

// claudeAnswer writes Claude Code's PreToolUse answer (also Codex's,
// which reads the same envelope); jsonout.go says why by hand.
func claudeAnswer(toolInput map[string]json.RawMessage, a Answer) ([]byte, error) {
	var sp jsonObject
	sp.str("hookEventName", "PreToolUse")
	switch a.Kind {
	case Refuse:
		sp.str("permissionDecision", "deny")
		sp.strOmitEmpty("permissionDecisionReason", a.Reason)
	case Change:
		decision := "ask"
		if a.Approve {
			decision = "allow"
		}
		sp.str("permissionDecision", decision)
		sp.strOmitEmpty("permissionDecisionReason", a.Reason)
		in, err := rawMap(withCommand(toolInput, a.Command, "run_in_background", a.Background))
		if err != nil {
			return nil, err
		}
		sp.raw("updatedInput", in)
	default:
		if a.Context == "" {
			return nil, nil
		}
	}
	sp.strOmitEmpty("additionalContext", a.Context)
	var out jsonObject
	out.raw("hookSpecificOutput", sp.json())
	return append(out.json(), '\n'), nil
}
