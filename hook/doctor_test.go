package hook

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"
)

// fakeFile is the fs.FileInfo of a file with a mode.
type fakeFile fs.FileMode

func (f fakeFile) Name() string       { return "" }
func (f fakeFile) Size() int64        { return 0 }
func (f fakeFile) Mode() fs.FileMode  { return fs.FileMode(f) }
func (f fakeFile) ModTime() time.Time { return time.Time{} }
func (f fakeFile) IsDir() bool        { return false }
func (f fakeFile) Sys() any           { return nil }

// Doctor finds what each agent needs that the real agents showed:
// the registration, a hook command that runs, Codex's trust, Copilot's
// trusted folder, an executable Cline file.
func TestDoctor(t *testing.T) {
	codexCfg, _ := Config("codex")
	claudeCfg, _ := Config("claude")
	clineCfg, _ := Config("cline")
	for _, c := range []struct {
		name, agent string
		files       map[string]string
		env         map[string]string
		exit        int      // the hook's exit on a clean call
		want        []string // "ok: text" or "MISSING: text", each must appear
	}{
		{"nothing", "claude", nil, nil, 0, []string{"MISSING: no hook registered"}},
		{"claude ok", "claude", map[string]string{"/p/.claude/settings.json": claudeCfg}, nil, 0,
			[]string{"ok: the hook is registered in /p/.claude/settings.json", "ok: `shguard hook --protocol claude` runs"}},
		{"broken binary", "claude", map[string]string{"/h/.claude/settings.json": claudeCfg}, nil, 127, []string{"MISSING: `shguard hook --protocol claude` on a clean call: exit 127"}},
		{"codex untrusted", "codex", map[string]string{"/h/.codex/hooks.json": codexCfg, "/h/.codex/config.toml": "[features]\ncodex_hooks = true\n"}, nil, 0,
			[]string{"ok: the hook is registered in /h/.codex/hooks.json", "MISSING: Codex has not trusted the hook of /h/.codex/hooks.json", "--dangerously-bypass-hook-trust", "ok: /h/.codex/config.toml uses the deprecated [features] codex_hooks"}},
		{"codex trusted", "codex", map[string]string{"/h/.codex/hooks.json": codexCfg, "/h/.codex/config.toml": "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:ab\"\n"}, nil, 0,
			[]string{"ok: Codex trusts the hook of /h/.codex/hooks.json"}},
		{"codex off", "codex", map[string]string{"/h/.codex/hooks.json": codexCfg, "/h/.codex/config.toml": "[features]\nhooks = false\n"}, nil, 0,
			[]string{"MISSING: /h/.codex/config.toml turns hooks off"}},
		{"copilot untrusted", "copilot", map[string]string{"/p/.github/hooks/shguard.json": `{"hooks":{"preToolUse":[{"bash":"shguard hook --protocol copilot"}]}}`}, nil, 0,
			[]string{"MISSING: Copilot CLI loads hooks only in a trusted folder"}},
		{"copilot allow all", "copilot", map[string]string{"/p/.github/hooks/shguard.json": `{"hooks":{"preToolUse":[{"bash":"shguard hook --protocol copilot"}]}}`}, map[string]string{"COPILOT_ALLOW_ALL": "true"}, 0,
			[]string{"ok: COPILOT_ALLOW_ALL is set"}},
		{"copilot trusted", "copilot", map[string]string{"/p/.github/hooks/shguard.json": `{"hooks":{"preToolUse":[{"bash":"shguard hook --protocol copilot"}]}}`, "/h/.copilot/config.json": `{"trusted_folders":["/p"]}`}, nil, 0,
			[]string{"ok: /p is a trusted folder"}},
		{"cline not executable", "cline", map[string]string{"/p/.cline/hooks/PreToolUse": clineCfg}, nil, 0, []string{"MISSING: /p/.cline/hooks/PreToolUse is not executable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checks, err := Doctor(c.agent, DoctorEnv{
				Home: "/h", Project: "/p",
				Getenv: func(k string) string { return c.env[k] },
				ReadFile: func(p string) ([]byte, error) {
					if b, ok := c.files[p]; ok {
						return []byte(b), nil
					}
					return nil, os.ErrNotExist
				},
				Stat: func(p string) (fs.FileInfo, error) {
					if _, ok := c.files[p]; ok {
						return fakeFile(0o644), nil
					}
					return nil, os.ErrNotExist
				},
				Run: func(cmdline string, payload []byte) ([]byte, []byte, int, error) {
					if !strings.Contains(string(payload), `"true"`) {
						return nil, nil, 0, errors.New("not a clean call")
					}
					return nil, nil, c.exit, nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ch := range checks {
				mark := "ok: "
				if !ch.OK {
					mark = "MISSING: "
				}
				got = append(got, mark+ch.What)
			}
			all := strings.Join(got, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("want %q in\n%s", w, all)
				}
			}
		})
	}
	if _, err := Doctor("nope", DoctorEnv{}); err == nil {
		t.Error("an unknown agent is not an error")
	}
}
