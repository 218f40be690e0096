package e2e

import (
	"encoding/json"
	"path/filepath"
)

// Gemini CLI: `gemini -p --yolo --skip-trust` (an untrusted folder turns
// --yolo back to "default") with an API key, talking to
// GOOGLE_GEMINI_BASE_URL (streamGenerateContent). ~/.gemini/settings.json
// holds the hook as printed (its "hooks" object; in the project's
// settings it did not run), the auth choice (without it: "Invalid auth
// method selected") and, in mode mcp, the MCP server.
func init() {
	register(&Agent{
		Name: "Gemini CLI", Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini",
		Protocol: "gemini", ShellTools: []string{"run_shell_command"}, Shell: "bash", MCP: true,
		Setup: func(r *Run) ([]string, []string, error) {
			settings := map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}}
			if r.HookConfig != "" {
				if err := json.Unmarshal([]byte(r.HookConfig), &settings); err != nil {
					return nil, nil, err
				}
			}
			if r.Mode == "mcp" {
				settings["mcpServers"] = map[string]any{"shexec": map[string]any{"command": "shexec", "args": []string{"mcp"}}}
			}
			b, _ := json.MarshalIndent(settings, "", "  ")
			if err := r.Write(filepath.Join(r.Home, ".gemini", "settings.json"), string(b), 0o644); err != nil {
				return nil, nil, err
			}
			return []string{r.Bin, "-p", r.Prompt, "--yolo", "--skip-trust", "-m", "gemini-2.5-flash"},
				[]string{"GEMINI_API_KEY=e2e-dummy", "GOOGLE_GEMINI_BASE_URL=" + r.ModelURL}, nil
		},
	})
}
