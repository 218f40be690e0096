package e2e

import (
	"path/filepath"
)

// Claude Code: `claude -p` in bypass mode (as root it wants IS_SANDBOX=1),
// talking Anthropic Messages to ANTHROPIC_BASE_URL. The hook goes in the
// project's .claude/settings.json; `shexec mcp` through --mcp-config.
func init() {
	register(&Agent{
		Name: "Claude Code", Package: "@anthropic-ai/claude-code", Version: "2.1.197", Bin: "claude",
		Protocol: "claude", ShellTools: []string{"Bash"}, ContextChannel: true, Shell: "zsh", MCP: true,
		MCPWait: "WaitForMcpServers",
		Setup: func(r *Run) ([]string, []string, error) {
			argv := []string{r.Bin, "-p", r.Prompt, "--model", "claude-sonnet-4-5", "--dangerously-skip-permissions"}
			if r.HookConfig != "" {
				if err := r.Write(filepath.Join(r.Project, ".claude", "settings.json"), r.HookConfig, 0o644); err != nil {
					return nil, nil, err
				}
			}
			if r.Mode == "mcp" {
				cfg := filepath.Join(r.Home, "mcp.json")
				if err := r.Write(cfg, `{"mcpServers": {"shexec": {"type": "stdio", "command": "shexec", "args": ["mcp"]}}}`, 0o644); err != nil {
					return nil, nil, err
				}
				argv = append(argv, "--mcp-config", cfg, "--strict-mcp-config")
			}
			return argv, []string{"ANTHROPIC_BASE_URL=" + r.ModelURL, "ANTHROPIC_API_KEY=e2e-dummy", "IS_SANDBOX=1",
				"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}, nil
		},
	})
}
