package e2e

import (
	"path/filepath"
)

// OpenCode: `opencode run PROMPT` with an OpenAI-compatible provider
// declared in the project's opencode.json (Chat Completions). The hook is
// a plugin, .opencode/plugins/shguard.js in the project, as printed. It
// runs commands with the user's $SHELL (zsh in the own-shell case).
//
// Offline, as the runs are, OpenCode's start spent 70 s in npm's retries
// installing @opencode-ai/plugin into each config directory (a failure it
// logs and goes on from; with network it takes a moment):
// npm_config_fetch_retries=0 makes it fail at once, and
// OPENCODE_DISABLE_MODELS_FETCH skips the models.dev catalogue.
func init() {
	register(&Agent{
		Name: "OpenCode", Package: "opencode-ai", Version: "1.18.33", Bin: "opencode",
		Protocol: "opencode", ShellTools: []string{"bash"}, ContextChannel: true, Shell: "zsh",
		Setup: func(r *Run) ([]string, []string, error) {
			cfg := `{
  "$schema": "https://opencode.ai/config.json",
  "model": "e2e/gpt-4.1",
  "autoupdate": false,
  "share": "disabled",
  "permission": {"bash": "allow", "edit": "allow"},
  "provider": {"e2e": {"npm": "@ai-sdk/openai-compatible", "name": "e2e",
    "options": {"baseURL": "` + r.ModelURL + `/v1", "apiKey": "e2e-dummy"},
    "models": {"gpt-4.1": {"name": "gpt-4.1", "tool_call": true}}}}
}
`
			if err := r.Write(filepath.Join(r.Project, "opencode.json"), cfg, 0o644); err != nil {
				return nil, nil, err
			}
			if r.HookConfig != "" {
				if err := r.Write(filepath.Join(r.Project, ".opencode", "plugins", "shguard.js"), r.HookConfig, 0o644); err != nil {
					return nil, nil, err
				}
			}
			return []string{r.Bin, "run", r.Prompt}, []string{"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "npm_config_fetch_retries=0"}, nil
		},
	})
}
