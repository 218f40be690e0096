package e2e

import (
	"path/filepath"
)

// Copilot CLI: `copilot -p --allow-all` offline against a BYOK provider
// (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL: Chat Completions). The
// hook goes in the repository's .github/hooks/shguard.json as printed;
// Copilot loads a folder's hooks only once the folder is trusted, which
// COPILOT_ALLOW_ALL=true does ("Setting it to exactly "true"
// additionally trusts the working directory", `copilot help environment`).
func init() {
	register(&Agent{
		Name: "Copilot CLI", Package: "@github/copilot", Version: "1.0.102", Bin: "copilot",
		Protocol: "copilot", ShellTools: []string{"bash"}, Shell: "bash",
		Setup: func(r *Run) ([]string, []string, error) {
			if r.HookConfig != "" {
				if err := r.Write(filepath.Join(r.Project, ".github", "hooks", "shguard.json"), r.HookConfig, 0o644); err != nil {
					return nil, nil, err
				}
			}
			return []string{r.Bin, "-p", r.Prompt, "--allow-all", "--no-auto-update"},
				[]string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + r.ModelURL + "/v1", "COPILOT_PROVIDER_TYPE=openai",
					"COPILOT_PROVIDER_API_KEY=e2e-dummy", "COPILOT_MODEL=gpt-4.1", "COPILOT_ALLOW_ALL=true"}, nil
		},
	})
}
