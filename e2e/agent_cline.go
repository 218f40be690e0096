package e2e

import (
	"os/exec"
	"path/filepath"
)

// Cline CLI: `cline auth` points it at an OpenAI-compatible provider
// (Chat Completions), then `cline --auto-approve true PROMPT` runs one
// task. The hook is the executable .cline/hooks/PreToolUse in the
// project, as printed. Cline leaves its hub daemon running.
func init() {
	register(&Agent{
		Name: "Cline CLI", Package: "cline", Version: "3.0.65", Bin: "cline",
		Protocol: "cline", ShellTools: []string{"run_commands", "execute_command"}, ContextChannel: true, Shell: "bash",
		Daemons: []string{"cline-hub-daemon"},
		Setup: func(r *Run) ([]string, []string, error) {
			if r.HookConfig != "" {
				if err := r.Write(filepath.Join(r.Project, ".cline", "hooks", "PreToolUse"), r.HookConfig, 0o755); err != nil {
					return nil, nil, err
				}
			}
			auth := exec.Command(r.Bin, "auth", "-p", "openai", "-b", r.ModelURL+"/v1", "-k", "e2e-dummy", "-m", "gpt-4.1")
			auth.Dir, auth.Env = r.Project, r.Env
			if out, err := auth.CombinedOutput(); err != nil {
				return nil, nil, &setupError{"cline auth", err, out}
			}
			return []string{r.Bin, "--auto-approve", "true", r.Prompt}, nil, nil
		},
	})
}
