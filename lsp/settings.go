package lsp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/shguardrc"
)

// Settings are what an editor user sets, through initializationOptions or
// workspace/didChangeConfiguration, either as they are or under a
// "shguard" key (how VS Code and Neovim's lspconfig send them):
//
//	{"shguard": {"severity": "warning", "exclude": ["SG3001"], "shell": "zsh"}}
//
// They act like the CLI's flags where a flag is about the user's taste
// (severity, exclude, style: they win over .shguardrc; exclude lists add
// up) and like a default where the file knows better: shell and caller
// apply to files whose shebang, `# shguard shell=` line and .shguardrc
// name none, since one editor setting covers every script the user opens.
type Settings struct {
	Severity string   `json:"severity"` // error, warning or info (the minimum reported)
	Exclude  []string `json:"exclude"`  // rule IDs or names; a comma-separated string works too
	Shell    string   `json:"shell"`    // bash, zsh, dash, sh, mksh or ksh
	Caller   string   `json:"caller"`   // leader or group
	Style    string   `json:"style"`    // default or brace
	NoRC     bool     `json:"norc"`     // ignore .shguardrc files
}

// config is Settings checked and parsed.
type config struct {
	severity analyze.Severity // 0: unset
	exclude  map[string]bool
	shell    *analyze.Lang
	caller   *analyze.Caller
	style    *analyze.Style
	norc     bool
}

// parseSettings reads the settings from raw JSON (nil or null: none).
func parseSettings(raw json.RawMessage) (config, error) {
	var c config
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	var wrapped struct {
		Shguard json.RawMessage `json:"shguard"`
	}
	if err := json.Unmarshal(raw, &wrapped); err == nil && len(wrapped.Shguard) > 0 {
		raw = wrapped.Shguard
	}
	var loose struct {
		Settings
		Exclude json.RawMessage `json:"exclude"`
	}
	if err := json.Unmarshal(raw, &loose); err != nil {
		return c, fmt.Errorf("settings: %v", err)
	}
	s := loose.Settings
	if len(loose.Exclude) > 0 && string(loose.Exclude) != "null" {
		var list []string
		var one string
		if err := json.Unmarshal(loose.Exclude, &list); err != nil {
			if err := json.Unmarshal(loose.Exclude, &one); err != nil {
				return c, fmt.Errorf("settings: exclude: want a list of rule IDs or a comma-separated string")
			}
			list = []string{one}
		}
		s.Exclude = list
	}
	var err error
	if s.Severity != "" {
		if c.severity, err = analyze.ParseSeverity(s.Severity); err != nil {
			return c, fmt.Errorf("settings: severity: %v", err)
		}
	}
	if len(s.Exclude) > 0 {
		ids, err := shguardrc.RuleList(strings.Join(s.Exclude, ","))
		if err != nil {
			return c, fmt.Errorf("settings: exclude: %v", err)
		}
		c.exclude = map[string]bool{}
		for _, id := range ids {
			c.exclude[id] = true
		}
	}
	if s.Shell != "" {
		l, err := analyze.ParseLang(s.Shell)
		if err != nil {
			return c, fmt.Errorf("settings: shell: %v", err)
		}
		c.shell = &l
	}
	if s.Caller != "" {
		cl, err := analyze.ParseCaller(s.Caller)
		if err != nil {
			return c, fmt.Errorf("settings: caller: %v", err)
		}
		c.caller = &cl
	}
	if s.Style != "" {
		st, err := analyze.ParseStyle(s.Style)
		if err != nil {
			return c, fmt.Errorf("settings: style: %v", err)
		}
		c.style = &st
	}
	c.norc = s.NoRC
	return c, nil
}

// options are the analyzer options for one document: the settings, its
// .shguardrc (rc, nil for none) and what the file says of its shell.
// The shell comes from a `# shguard shell=` line, then .shguardrc, then
// the shebang, then the editor's language (zsh, ksh…), then the shell
// setting, else bash.
func (c config) options(src []byte, langHint *analyze.Lang, rc *shguardrc.Config) []analyze.Option {
	min, style, caller, lang := c.severity, c.style, c.caller, c.shell
	if langHint != nil {
		lang = langHint
	}
	if l, ok := analyze.ShebangLang(src); ok {
		lang = &l
	}
	exclude := c.exclude
	if rc != nil {
		if min == 0 {
			min = rc.Severity
		}
		if style == nil {
			style = rc.Style
		}
		if rc.Caller != nil {
			caller = rc.Caller
		}
		if rc.Lang != nil {
			lang = rc.Lang
		}
		if len(rc.Exclude) > 0 {
			exclude = map[string]bool{}
			for id := range c.exclude {
				exclude[id] = true
			}
			for _, id := range rc.Exclude {
				exclude[id] = true
			}
		}
	}
	if l, ok := analyze.DirectiveLang(src); ok {
		lang = &l
	}
	if min == 0 {
		min = analyze.Info
	}
	var include map[string]bool
	if rc != nil && len(rc.Include) > 0 {
		include = map[string]bool{}
		for _, id := range rc.Include {
			include[id] = true
		}
	}
	keep := func(f analyze.Finding) bool {
		return f.Severity >= min && !exclude[f.Rule] && (include == nil || include[f.Rule])
	}
	opts := []analyze.Option{analyze.WithScriptFile(), analyze.WithFilter(keep)}
	if lang != nil {
		opts = append(opts, analyze.WithLang(*lang))
	}
	if style != nil {
		opts = append(opts, analyze.WithStyle(*style))
	}
	if caller != nil {
		opts = append(opts, analyze.WithCaller(*caller))
	}
	if rc != nil && len(rc.Servers) > 0 {
		opts = append(opts, analyze.WithServers(rc.Servers...))
	}
	return opts
}
