package e2e

import (
	"path/filepath"
)

// Codex CLI: `codex exec` with approvals and sandbox bypassed, talking
// OpenAI Responses to a model provider of its config.toml. The hook goes
// in ~/.codex/hooks.json as printed, behind `[features] codex_hooks`.
// Codex runs a hook only once the user has trusted it (its TUI asks
// once); `codex exec` cannot ask and skips an untrusted hook silently, so
// the run grants it with --dangerously-bypass-hook-trust (Codex 0.171.0:
// "Run enabled hooks without requiring persisted hook trust for this
// invocation").
func init() {
	register(&Agent{
		Name: "Codex CLI", Package: "@openai/codex", Version: "0.171.0", Bin: "codex",
		Protocol: "codex", ShellTools: []string{"exec_command", "shell", "local_shell"}, ContextChannel: true, Shell: "bash",
		Setup: func(r *Run) ([]string, []string, error) {
			home := filepath.Join(r.Home, ".codex")
			cfg := `model = "gpt-5-codex"
model_provider = "e2e"

[model_providers.e2e]
name = "e2e"
base_url = "` + r.ModelURL + `/v1"
wire_api = "responses"
env_key = "E2E_API_KEY"

[features]
codex_hooks = true
`
			if err := r.Write(filepath.Join(home, "config.toml"), cfg, 0o644); err != nil {
				return nil, nil, err
			}
			if r.HookConfig != "" {
				if err := r.Write(filepath.Join(home, "hooks.json"), r.HookConfig, 0o644); err != nil {
					return nil, nil, err
				}
			}
			return []string{r.Bin, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
					"--dangerously-bypass-hook-trust", r.Prompt},
				[]string{"CODEX_HOME=" + home, "E2E_API_KEY=e2e-dummy"}, nil
		},
	})
}
