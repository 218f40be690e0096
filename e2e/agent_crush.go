package e2e

import (
	"encoding/json"
	"path/filepath"
)

// Crush: `crush run --yolo PROMPT` (non-interactive, docs: crush run)
// with an "openai-compat" provider (Chat Completions) in the project's
// crush.json, which also holds the hook as printed (its "hooks" object).
// Its npm package's postinstall downloads the binary from GitHub, which
// is not reachable here: the install fails and the row says so. (Built
// from source instead: the Go module proxy answers 403 for
// github.com/charmbracelet/crush, every version, 7 Dec 2026.)
func init() {
	register(&Agent{
		Name: "Crush", Package: "@charmland/crush", Version: "0.96.1", Bin: "crush",
		Protocol: "crush", ShellTools: []string{"bash"}, ContextChannel: true, Shell: "bash",
		Setup: func(r *Run) ([]string, []string, error) {
			cfg := map[string]any{}
			if r.HookConfig != "" {
				if err := json.Unmarshal([]byte(r.HookConfig), &cfg); err != nil {
					return nil, nil, err
				}
			}
			cfg["providers"] = map[string]any{"e2e": map[string]any{"name": "e2e", "type": "openai-compat",
				"base_url": r.ModelURL + "/v1", "api_key": "e2e-dummy",
				"models": []any{map[string]any{"id": "gpt-4.1", "name": "gpt-4.1", "context_window": 128000, "default_max_tokens": 4096}}}}
			cfg["models"] = map[string]any{"large": map[string]any{"provider": "e2e", "model": "gpt-4.1"},
				"small": map[string]any{"provider": "e2e", "model": "gpt-4.1"}}
			b, _ := json.MarshalIndent(cfg, "", "  ")
			if err := r.Write(filepath.Join(r.Project, "crush.json"), string(b), 0o644); err != nil {
				return nil, nil, err
			}
			return []string{r.Bin, "run", "--quiet", "--yolo", r.Prompt}, nil, nil
		},
	})
}
