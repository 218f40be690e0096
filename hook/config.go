package hook

import "sort"

// install is how the hook is registered with one agent: where the
// snippet goes, and the snippet itself, exactly as the file should hold
// it (so `shguard hook --print-config AGENT > FILE` works for a new file).
type install struct {
	where, body string
}

// configs follow each agent's own documentation of hook registration
// (sources in docs/agents.md).
var configs = map[string]install{
	"claude": {".claude/settings.json (project), .claude/settings.local.json or ~/.claude/settings.json (user); or install the plugin of this repository", `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol claude"}]}
    ]
  }
}
`},
	"codex": {"~/.codex/hooks.json or <repo>/.codex/hooks.json; and in ~/.codex/config.toml: [features] codex_hooks = true", `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol codex"}]}
    ]
  }
}
`},
	"gemini": {".gemini/settings.json (project) or ~/.gemini/settings.json (user)", `{
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "shguard hook --protocol gemini", "timeout": 5000}]}
    ]
  }
}
`},
	"cursor": {"<project>/.cursor/hooks.json or ~/.cursor/hooks.json", `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "shguard hook --protocol cursor"}]
  }
}
`},
	"copilot": {".github/hooks/shguard.json in the repository", `{
  "version": 1,
  "hooks": {
    "preToolUse": [{"type": "command", "bash": "shguard hook --protocol copilot", "timeoutSec": 30}]
  }
}
`},
	"cline": {"an executable file .clinerules/hooks/PreToolUse (VS Code extension; enable hooks in Cline's settings) or .cline/hooks/PreToolUse (CLI); the same as contrib/cline/PreToolUse", `#!/usr/bin/env bash
# Cline runs this file with the tool call as JSON on stdin and no arguments.
exec shguard hook --protocol cline
`},
	"crush": {"crush.json or .crush.json (project), ~/.config/crush/crush.json (user)", `{
  "hooks": {
    "PreToolUse": [{"matcher": "^bash$", "command": "shguard hook --protocol crush", "timeout": 10}]
  }
}
`},
}

// Config returns the snippet that installs the hook in agent, as the
// file holds it.
func Config(agent string) (string, bool) {
	c, ok := configs[agent]
	return c.body, ok
}

// ConfigWhere says where agent's snippet goes.
func ConfigWhere(agent string) string { return configs[agent].where }

// ConfigNames lists the agents Config knows.
func ConfigNames() []string {
	var ns []string
	for n := range configs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
