package hook

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
)

// Doctor checks that the hook is installed for one agent so that the
// agent runs it at all: a configuration that registers it, the command it
// names runs and answers a clean call, and what the real agents turned
// out to need besides (Codex's hook trust and feature flag, Copilot CLI's
// trusted folder, an executable Cline hook file). Each Check says what
// was found or exactly what is missing.

// Check is one thing Doctor looked at.
type Check struct {
	OK   bool
	What string
}

// DoctorEnv is what Doctor reads; the caller supplies the real ones.
type DoctorEnv struct {
	Home, Project string
	Getenv        func(string) string
	ReadFile      func(string) ([]byte, error)
	Stat          func(string) (fs.FileInfo, error)
	// Run runs a hook command line the way the agent does (sh -c), with
	// payload on stdin.
	Run func(cmdline string, payload []byte) (stdout, stderr []byte, exit int, err error)
}

// doctorFiles are where each agent reads its hook registration, {home}
// and {project} replaced (the same places as configs' where). A function,
// not a package-level map: the hook starts on every call, and a map
// literal is built at start-up.
func doctorFiles() map[string][]string {
	return map[string][]string{
		"claude":   {"{project}/.claude/settings.json", "{project}/.claude/settings.local.json", "{home}/.claude/settings.json"},
		"codex":    {"{codex}/hooks.json", "{project}/.codex/hooks.json", "{codex}/config.toml"},
		"gemini":   {"{project}/.gemini/settings.json", "{home}/.gemini/settings.json"},
		"qwen":     {"{project}/.qwen/settings.json", "{home}/.qwen/settings.json"},
		"cursor":   {"{project}/.cursor/hooks.json", "{home}/.cursor/hooks.json"},
		"copilot":  {"{project}/.github/hooks/shguard.json"},
		"crush":    {"{project}/crush.json", "{project}/.crush.json", "{home}/.config/crush/crush.json"},
		"cline":    {"{project}/.cline/hooks/PreToolUse", "{project}/.clinerules/hooks/PreToolUse", "{cline}/hooks/PreToolUse", "{home}/Documents/Cline/Hooks/PreToolUse"},
		"opencode": {"{project}/.opencode/plugins/shguard.js", "{home}/.config/opencode/plugins/shguard.js"},
	}
}

// doctorPayloads are clean calls in each agent's shape: an installed hook
// answers them with nothing and exit 0.
func doctorPayloads() map[string]string {
	return map[string]string{
		"claude":   `{"hook_event_name":"PreToolUse","permission_mode":"default","cwd":"/","tool_name":"Bash","tool_input":{"command":"true"}}`,
		"codex":    `{"hook_event_name":"PreToolUse","turn_id":"t","cwd":"/","tool_name":"Bash","tool_input":{"command":"true"}}`,
		"gemini":   `{"hook_event_name":"BeforeTool","cwd":"/","tool_name":"run_shell_command","tool_input":{"command":"true"}}`,
		"qwen":     `{"hook_event_name":"PreToolUse","cwd":"/","tool_name":"run_shell_command","tool_input":{"command":"true"}}`,
		"cursor":   `{"hook_event_name":"beforeShellExecution","command":"true","cwd":"/"}`,
		"copilot":  `{"timestamp":0,"cwd":"/","toolName":"bash","toolArgs":"{\"command\":\"true\"}"}`,
		"crush":    `{"event":"PreToolUse","cwd":"/","tool_name":"bash","tool_input":{"command":"true"}}`,
		"cline":    `{"hookName":"tool_call","workspaceRoots":["/"],"tool_call":{"id":"t","name":"run_commands","input":{"commands":["true"]}}}`,
		"opencode": `{"tool":"bash","sessionID":"s","callID":"c","args":{"command":"true"},"directory":"/"}`,
	}
}

// Doctor checks agent's installation; an unknown agent is an error.
func Doctor(agent string, env DoctorEnv) ([]Check, error) {
	files, ok := doctorFiles()[agent]
	if !ok {
		return nil, fmt.Errorf("unknown agent %q (want %s)", agent, strings.Join(ConfigNames(), ", "))
	}
	codexHome := env.Getenv("CODEX_HOME")
	if codexHome == "" {
		codexHome = filepath.Join(env.Home, ".codex")
	}
	clineDir := env.Getenv("CLINE_DIR")
	if clineDir == "" {
		clineDir = filepath.Join(env.Home, ".cline")
	}
	r := strings.NewReplacer("{home}", env.Home, "{project}", env.Project, "{codex}", codexHome, "{cline}", clineDir)
	marker := "shguard hook --protocol " + agent
	if agent == "opencode" {
		marker = `"--protocol", "opencode"`
	}
	var checks []Check
	var found []string
	for _, f := range files {
		f = r.Replace(f)
		b, err := env.ReadFile(f)
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		found = append(found, f)
		checks = append(checks, Check{true, "the hook is registered in " + f})
		cmdline := hookCommand(agent, f, string(b))
		if agent == "cline" {
			if fi, err := env.Stat(f); err != nil || fi.Mode().Perm()&0o111 == 0 {
				checks = append(checks, Check{false, f + " is not executable: chmod +x " + f})
				continue
			}
		}
		checks = append(checks, runCheck(env, cmdline, doctorPayloads()[agent]))
	}
	if len(found) == 0 {
		var where []string
		for _, f := range files {
			where = append(where, r.Replace(f))
		}
		checks = append(checks, Check{false, "no hook registered: put the output of `shguard hook --print-config " + agent + "` in one of " + strings.Join(where, ", ")})
		return checks, nil
	}
	switch agent {
	case "codex":
		checks = append(checks, codexChecks(env, codexHome, found)...)
	case "copilot":
		checks = append(checks, copilotTrust(env))
	}
	return checks, nil
}

// hookCommand is the command line the agent runs for the hook found in
// file: the registered command, the Cline hook file itself, or what the
// OpenCode plugin runs.
func hookCommand(agent, file, body string) string {
	switch agent {
	case "cline":
		return quote(file)
	case "opencode":
		return "shguard hook --protocol opencode"
	}
	// compiled here, not at package level: the hook starts on every call
	jsonCommand := regexp.MustCompile(`"(?:command|bash)"\s*:\s*"([^"]*shguard hook --protocol [a-z]+[^"]*)"`)
	if m := jsonCommand.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return "shguard hook --protocol " + agent
}

// runCheck runs the hook on a clean call: it must exit 0 and answer
// nothing.
func runCheck(env DoctorEnv, cmdline, payload string) Check {
	out, errOut, exit, err := env.Run(cmdline, []byte(payload))
	switch {
	case err != nil:
		return Check{false, "`" + cmdline + "` cannot be run: " + err.Error()}
	case exit != 0 || len(strings.TrimSpace(string(out))) != 0:
		return Check{false, fmt.Sprintf("`%s` on a clean call: exit %d, stdout %q, stderr %q (is the shguard on PATH this one? `command -v shguard`)", cmdline, exit, out, errOut)}
	}
	return Check{true, "`" + cmdline + "` runs and passes a clean call"}
}

// codexChecks: the feature flag, and trust (Codex 0.171 skips an
// untrusted hook silently in `codex exec`). Trust is recorded in
// config.toml as [hooks.state."<file>:pre_tool_use:<i>:<j>"] with a
// trusted_hash; whether that hash is the file's current one only Codex
// can tell (it re-asks after a change).
func codexChecks(env DoctorEnv, codexHome string, found []string) []Check {
	cfgPath := filepath.Join(codexHome, "config.toml")
	cfg, _ := env.ReadFile(cfgPath)
	c := string(cfg)
	var checks []Check
	if regexp.MustCompile(`(?m)^\s*hooks\s*=\s*false`).MatchString(c) {
		checks = append(checks, Check{false, cfgPath + " turns hooks off ([features] hooks = false)"})
	}
	if strings.Contains(c, "codex_hooks") {
		checks = append(checks, Check{true, cfgPath + " uses the deprecated [features] codex_hooks: hooks are on by default from Codex 0.124 (else write hooks = true)"})
	}
	for _, f := range found {
		if strings.HasSuffix(f, "config.toml") {
			f = cfgPath
		}
		if strings.Contains(c, `[hooks.state."`+f+`:pre_tool_use:`) {
			checks = append(checks, Check{true, "Codex trusts the hook of " + f + " (" + cfgPath + " [hooks.state]; Codex asks again if the file changed)"})
			continue
		}
		checks = append(checks, Check{false, "Codex has not trusted the hook of " + f + ": run `codex` once in a terminal and choose \"Trust all and continue\"; `codex exec` cannot ask and skips it silently (or run `codex exec --dangerously-bypass-hook-trust`)"})
		if dir := filepath.Dir(filepath.Dir(f)); filepath.Base(filepath.Dir(f)) == ".codex" && dir != env.Home && !strings.Contains(c, `[projects."`+dir+`"]`) {
			checks = append(checks, Check{false, "project hooks need a trusted project: trust " + dir + " in codex (saved as [projects.\"" + dir + "\"] trust_level = \"trusted\")"})
		}
	}
	return checks
}

// copilotTrust: Copilot CLI loads hooks only in a trusted folder.
func copilotTrust(env DoctorEnv) Check {
	if envTrue(env.Getenv("COPILOT_ALLOW_ALL")) {
		return Check{true, "COPILOT_ALLOW_ALL is set: every folder is trusted"}
	}
	cfg := filepath.Join(env.Home, ".copilot", "config.json")
	if b, err := env.ReadFile(cfg); err == nil && strings.Contains(string(b), `"`+env.Project+`"`) {
		return Check{true, env.Project + " is a trusted folder (" + cfg + ")"}
	}
	return Check{false, "Copilot CLI loads hooks only in a trusted folder: start copilot in " + env.Project + " once and trust it (saved in " + cfg + "), or set COPILOT_ALLOW_ALL=true"}
}
