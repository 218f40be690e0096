package hook

import (
	"encoding/json"
)

// Qwen is Qwen Code's PreToolUse hook. Qwen Code is a fork of Gemini CLI
// whose hooks took Claude Code's shape instead of Gemini's; read from the
// @qwen-code/qwen-code 0.15.10 bundle (cli.js: firePreToolUseEvent,
// createBaseInput, PreToolUseHookOutput, firePreToolUseHook and its
// caller in the tool scheduler).
//
// In: {"session_id", "transcript_path", "cwd", "hook_event_name":
// "PreToolUse", "timestamp", "permission_mode" (its approval mode:
// default, auto-edit, yolo, plan), "tool_name": "run_shell_command",
// "tool_input": {"command", "description", "is_background", ...},
// "tool_use_id"}. Out: Claude's envelope, hookSpecificOutput
// {permissionDecision, permissionDecisionReason, additionalContext}
// (the top-level decision/reason of Gemini is read too).
//
// Where it differs from both parents: the hook runs after Qwen's own
// approval, right before the tool executes, and updatedInput is not read
// at PreToolUse (only by the PermissionRequest hook, which runs only
// where a prompt would be shown). So nothing can be rewritten: a command
// that needs a change is refused ("deny": the reason reaches the model
// as the tool's error and the run goes on) with the exact command to run
// instead, which for a lone background job or a foreground server is
// the same command with is_background: true. "ask" is refused like
// "deny" (blocked, "User confirmation required"), so it is never sent.
// additionalContext reaches the model (with < and > escaped). Its shell
// tool runs the command in a process group of its own ("Process Group
// PGID" in the result) and ends that group when the command returns:
// driven end to end, a server left in it by `bash -c "srv & …"` no longer
// answered (Caps.GroupKilled). Exit 2
// blocks the call; any other non-zero exit is shown to the user and the
// call goes on: errors exit 1.
var Qwen = &Protocol{
	Name: "qwen", Agent: "Qwen Code", ErrorExit: 1,
	Parse:      parseQwen,
	DetectRule: `hook_event_name "PreToolUse" with tool_name "run_shell_command"`,
	Detect: func(m map[string]json.RawMessage) bool {
		return str(m, "hook_event_name") == "PreToolUse" && str(m, "tool_name") == "run_shell_command"
	},
}

func parseQwen(payload []byte, env Env) (*Call, error) {
	in, cmd, err := readToolCall(payload, "Qwen Code PreToolUse", "PreToolUse", "run_shell_command")
	if in == nil || err != nil {
		return nil, err
	}
	c := &Call{
		Request: Request{Command: cmd, Cwd: in.Cwd, InBackground: truthy(in.ToolInput, "is_background")},
		Caps:    Caps{Background: true, BackgroundParam: "is_background", GroupKilled: true},
	}
	c.Render = func(a Answer) ([]byte, error) { return claudeAnswer(in.ToolInput, a) }
	return c, nil
}
