package hook

import "sort"

// configs are the snippets that install the hook in each agent, as that
// agent's documentation gives the registration (../../shared/agents.md).
var configs = map[string]string{
	"claude": `# .claude/settings.json (project) or ~/.claude/settings.json (user):
{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol claude"}]}
    ]
  }
}
`,
	"codex": `# ~/.codex/hooks.json or <repo>/.codex/hooks.json; needs [features] codex_hooks = true in config.toml
{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol codex"}]}
    ]
  }
}
`,
	"gemini": `# .gemini/settings.json (project) or ~/.gemini/settings.json (user):
{
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "shguard hook --protocol gemini", "timeout": 5000}]}
    ]
  }
}
`,
	"cursor": `# <project>/.cursor/hooks.json or ~/.cursor/hooks.json:
{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "shguard hook --protocol cursor"}]
  }
}
`,
	"copilot": `# .github/hooks/shguard.json in the repository:
{
  "version": 1,
  "hooks": {
    "preToolUse": [{"type": "command", "bash": "shguard hook --protocol copilot", "timeoutSec": 30}]
  }
}
`,
	"cline": `# an executable file named after the event: .clinerules/hooks/PreToolUse
# (extension; enable hooks in settings) or .cline/hooks/PreToolUse (CLI):
#!/usr/bin/env bash
exec shguard hook --protocol cline
`,
	"crush": `# crush.json or .crush.json (project), ~/.config/crush/crush.json (user):
{
  "hooks": {
    "PreToolUse": [{"matcher": "^bash$", "command": "shguard hook --protocol crush", "timeout": 10}]
  }
}
`,
}

// Config returns the snippet that installs the hook in agent.
func Config(agent string) (string, bool) {
	c, ok := configs[agent]
	return c, ok
}

// ConfigNames lists the agents Config knows.
func ConfigNames() []string {
	var ns []string
	for n := range configs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
