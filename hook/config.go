package hook

import (
	_ "embed" // the OpenCode plugin file
	"sort"
)

// install is how the hook is registered with one agent: where the
// snippet goes, and the snippet itself, exactly as the file should hold
// it (so `shguard hook --print-config AGENT > FILE` works for a new file).
type install struct {
	agent, where, body string
	// setup is what else the agent needs before it runs the hook at all
	// (trust, feature flags), found by driving the real agents.
	setup string
}

// configs follow each agent's own documentation of hook registration
// (sources in docs/agents.md). Built when --print-config or --doctor asks,
// not at every hook start (OpenCode's entry is the embedded plugin file,
// which a package-level table would copy at start-up).
func configs() []install {
	return []install{
		{"claude", ".claude/settings.json (project), .claude/settings.local.json or ~/.claude/settings.json (user); or install the plugin of this repository", `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol claude"}]}
    ]
  }
}
`, ""},
		{"codex", "~/.codex/hooks.json (or $CODEX_HOME/hooks.json), or <repo>/.codex/hooks.json in a trusted project", `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "shguard hook --protocol codex"}]}
    ]
  }
}
`, `Codex runs a new or changed hook only once you trust it: start codex (the TUI) once and choose
"Trust all and continue" (it saves [hooks.state."<hooks.json>:pre_tool_use:0:0"] trusted_hash in
~/.codex/config.toml). codex exec cannot ask and skips an untrusted hook silently: trust it in the
TUI first, or run codex exec --dangerously-bypass-hook-trust. Hooks are on by default from Codex
0.124 ([features] hooks = true before; the old name codex_hooks is deprecated).
Check with: shguard hook --doctor codex`},
		{"gemini", ".gemini/settings.json (project) or ~/.gemini/settings.json (user)", `{
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "shguard hook --protocol gemini", "timeout": 5000}]}
    ]
  }
}
`, ""},
		{"cursor", "<project>/.cursor/hooks.json or ~/.cursor/hooks.json", `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "shguard hook --protocol cursor"}]
  }
}
`, ""},
		{"copilot", ".github/hooks/shguard.json in the repository", `{
  "version": 1,
  "hooks": {
    "preToolUse": [{"type": "command", "bash": "shguard hook --protocol copilot", "timeoutSec": 30}]
  }
}
`, `Copilot CLI loads hooks only in a trusted folder: answer its "trust this folder" prompt once
(saved in ~/.copilot/config.json), or run with COPILOT_ALLOW_ALL=true (copilot -p ... --allow-all).
Check with: shguard hook --doctor copilot`},
		{"cline", "an executable file named PreToolUse (chmod +x): Cline CLI reads <project>/.cline/hooks/, <project>/.clinerules/hooks/, ~/.cline/hooks/ ($CLINE_DIR/hooks/) and ~/Documents/Cline/Hooks/; the VS Code extension .clinerules/hooks/ and ~/Documents/Cline/Hooks/ (enable hooks in its settings); the same as contrib/cline/PreToolUse", `#!/usr/bin/env bash
# Cline runs this file with the tool call as JSON on stdin and no arguments.
exec shguard hook --protocol cline
`, `The file must be executable: chmod +x PreToolUse.
Check with: shguard hook --doctor cline`},
		{"qwen", ".qwen/settings.json (project) or ~/.qwen/settings.json (user)", `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "shguard hook --protocol qwen"}]}
    ]
  }
}
`, ""},
		{"opencode", ".opencode/plugins/shguard.js (project) or ~/.config/opencode/plugins/shguard.js (user); the same as contrib/opencode/shguard.js", opencodePlugin, ""},
		{"crush", "crush.json or .crush.json (project), ~/.config/crush/crush.json (user)", `{
  "hooks": {
    "PreToolUse": [{"matcher": "^bash$", "command": "shguard hook --protocol crush", "timeout": 10}]
  }
}
`, ""},
	}
}

// opencodePlugin is OpenCode's plugin, embedded so that --print-config
// prints the file itself (contrib/opencode/shguard.js links to it).
//
//go:embed opencode_plugin.js
var opencodePlugin string

// Config returns the snippet that installs the hook in agent, as the
// file holds it.
func Config(agent string) (string, bool) {
	c, ok := configFor(agent)
	return c.body, ok
}

// ConfigWhere says where agent's snippet goes.
func ConfigWhere(agent string) string { c, _ := configFor(agent); return c.where }

// ConfigSetup says what else agent needs before it runs the hook ("":
// nothing).
func ConfigSetup(agent string) string { c, _ := configFor(agent); return c.setup }

// ConfigNames lists the agents Config knows.
func ConfigNames() []string {
	var ns []string
	for _, c := range configs() {
		ns = append(ns, c.agent)
	}
	sort.Strings(ns)
	return ns
}

func configFor(agent string) (install, bool) {
	for _, c := range configs() {
		if c.agent == agent {
			return c, true
		}
	}
	return install{}, false
}
