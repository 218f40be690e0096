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
//   - permission_mode dontAsk and bypassPermissions ask nobody: a change
//     is approved where the rules allow the original, else refused with
//     the command to run instead — never "ask";
//   - the command runs in CLAUDE_CODE_SHELL, else $SHELL (zsh on macOS):
//     that shell is analysed, and the context says so;
//   - run_in_background takes a lone background job, unless
//     CLAUDE_CODE_DISABLE_BACKGROUND_TASKS is set;
//   - --allow approves a change only where the user's own permission
//     rules would have run the command as written without a prompt
//     (claude_rules.go).
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
	HookEventName  string                     `json:"hook_event_name"`
	PermissionMode string                     `json:"permission_mode"`
	Cwd            string                     `json:"cwd"`
	ToolName       string                     `json:"tool_name"`
	ToolInput      map[string]json.RawMessage `json:"tool_input"`
}

// readToolCall reads a payload of the hook_event_name/tool_name/tool_input
// shape that Claude Code, Codex and Gemini CLI share. A nil input and nil
// error: another event or tool (a missing event name counts as event).
func readToolCall(payload []byte, what, event, tool string) (*claudeInput, string, error) {
	var in claudeInput
	if err := decode(payload, &in, what); err != nil {
		return nil, "", err
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
	noOneAsked := in.PermissionMode == "dontAsk" || in.PermissionMode == "bypassPermissions"
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

// claudeAnswer writes Claude Code's PreToolUse answer (also Codex's,
// which reads the same envelope).
func claudeAnswer(toolInput map[string]json.RawMessage, a Answer) ([]byte, error) {
	type specific struct {
		HookEventName            string                     `json:"hookEventName"`
		PermissionDecision       string                     `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string                     `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
		AdditionalContext        string                     `json:"additionalContext,omitempty"`
	}
	sp := specific{HookEventName: "PreToolUse", AdditionalContext: a.Context}
	switch a.Kind {
	case Refuse:
		sp.PermissionDecision, sp.PermissionDecisionReason = "deny", a.Reason
	case Change:
		sp.PermissionDecision, sp.PermissionDecisionReason = "ask", a.Reason
		if a.Approve {
			sp.PermissionDecision = "allow"
		}
		sp.UpdatedInput = withCommand(toolInput, a.Command, "run_in_background", a.Background)
	default:
		if a.Context == "" {
			return nil, nil
		}
	}
	return marshal(map[string]any{"hookSpecificOutput": sp})
}
