package hook

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The Claude Code plugin in the repository registers the same hook as
// --print-config claude, and its manifest is valid JSON with a name.
func TestClaudePlugin(t *testing.T) {
	var manifest struct{ Name, Version, Description string }
	b, err := os.ReadFile("../.claude-plugin/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil || manifest.Name != "shguard" || manifest.Version == "" {
		t.Fatalf("plugin.json: %+v, %v", manifest, err)
	}
	// The repository is its own marketplace: `/plugin marketplace add
	// shguard/shguard`, then `/plugin install shguard@shguard`.
	var market struct {
		Name    string
		Owner   struct{ Name string }
		Plugins []struct{ Name, Source string }
	}
	b, err = os.ReadFile("../.claude-plugin/marketplace.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &market); err != nil || market.Name == "" || market.Owner.Name == "" ||
		len(market.Plugins) != 1 || market.Plugins[0].Name != manifest.Name || market.Plugins[0].Source != "./" {
		t.Fatalf("marketplace.json: %+v, %v", market, err)
	}
	var hooks struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	b, err = os.ReadFile("../hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	pre := hooks.Hooks["PreToolUse"]
	if len(pre) != 1 || pre[0].Matcher != "Bash" || len(pre[0].Hooks) != 1 || pre[0].Hooks[0].Command != "shguard hook --protocol claude" {
		t.Fatalf("hooks.json: %+v", hooks)
	}
	cfg, _ := Config("claude")
	if !strings.Contains(cfg, pre[0].Hooks[0].Command) {
		t.Errorf("--print-config claude does not register %q", pre[0].Hooks[0].Command)
	}
	for _, agent := range Names() {
		if agent == "json" {
			continue
		}
		if c, ok := Config(agent); !ok || !strings.Contains(c, "--protocol "+agent) {
			t.Errorf("no configuration for %s that selects its protocol", agent)
		}
	}
}

// The OpenCode plugin in contrib/ is the one --print-config prints, and
// the Cline hook file runs the same command.
func TestConfigFiles(t *testing.T) {
	b, err := os.ReadFile("../contrib/opencode/shguard.js")
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := Config("opencode"); cfg != string(b) {
		t.Errorf("contrib/opencode/shguard.js differs from --print-config opencode")
	}
	if b, err = os.ReadFile("../contrib/cline/PreToolUse"); err != nil || !strings.Contains(string(b), "\nexec shguard hook --protocol cline\n") {
		t.Errorf("contrib/cline/PreToolUse does not run the hook: %v", err)
	}
}
