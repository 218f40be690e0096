package e2e

import (
	"encoding/json"
	"path/filepath"
)

// Qwen Code (a Gemini CLI fork): `qwen -p --yolo` with the OpenAI auth
// (OPENAI_BASE_URL, OPENAI_MODEL: Chat Completions). ~/.qwen/settings.json
// holds the hook as printed (its "hooks" object), the auth choice and, in
// mode mcp, the MCP server.
func init() {
	register(&Agent{
		Name: "Qwen Code", Package: "@qwen-code/qwen-code", Version: "0.15.10", Bin: "qwen",
		Protocol: "qwen", ShellTools: []string{"run_shell_command"}, Shell: "bash",
		Setup: func(r *Run) ([]string, []string, error) {
			settings := map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}}}
			if r.HookConfig != "" {
				if err := json.Unmarshal([]byte(r.HookConfig), &settings); err != nil {
					return nil, nil, err
				}
			}
			b, _ := json.MarshalIndent(settings, "", "  ")
			if err := r.Write(filepath.Join(r.Home, ".qwen", "settings.json"), string(b), 0o644); err != nil {
				return nil, nil, err
			}
			return []string{r.Bin, "-p", r.Prompt, "--yolo"},
				[]string{"OPENAI_API_KEY=e2e-dummy", "OPENAI_BASE_URL=" + r.ModelURL + "/v1", "OPENAI_MODEL=gpt-4.1"}, nil
		},
	})
}
