package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
)

// claudePermissions are the Bash permission rules of Claude Code's
// settings (managed, user, project, local), which decide whether a command
// runs without a prompt. --allow approves a rewritten command only when
// the command as the model wrote it would have: the hook never grants more
// than the user did.
//
// Rule forms, from Claude Code's permission docs: `Bash` and `Bash(*)`
// match every command; `Bash(npm run build)` that exact command;
// `Bash(npm run test:*)` every command that starts with the words before
// `:*`; `Bash(git * main)` a command the glob matches (`*` any text). A
// command made of several (`a && b`, `a; b`, `a | b`) is allowed only when
// each simple command in it is; one deny or ask rule that matches any part
// wins over allow.
type claudePermissions struct {
	allow, ask, deny []string
}

// claudeSettingsFiles are where Claude Code reads settings from, lowest
// precedence first (precedence does not matter here: deny and ask of any
// file win over allow).
func claudeSettingsFiles(cwd string, opt Options) []string {
	var fs []string
	switch runtime.GOOS {
	case "darwin":
		fs = append(fs, "/Library/Application Support/ClaudeCode/managed-settings.json")
	case "windows":
		fs = append(fs, `C:\Program Files\ClaudeCode\managed-settings.json`)
	default:
		fs = append(fs, "/etc/claude-code/managed-settings.json")
	}
	home := opt.getenv("HOME")
	if dir := opt.getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		fs = append(fs, filepath.Join(dir, "settings.json"))
	} else if home != "" {
		fs = append(fs, filepath.Join(home, ".claude", "settings.json"))
	}
	if cwd != "" {
		fs = append(fs, filepath.Join(cwd, ".claude", "settings.json"), filepath.Join(cwd, ".claude", "settings.local.json"))
	}
	return fs
}

func loadClaudePermissions(cwd string, opt Options) claudePermissions {
	var ps claudePermissions
	for _, f := range claudeSettingsFiles(cwd, opt) {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		ps.add(b)
	}
	return ps
}

// add reads the permissions of one settings file.
func (ps *claudePermissions) add(settings []byte) {
	var s struct {
		Permissions struct {
			Allow, Ask, Deny []string
		}
	}
	if json.Unmarshal(settings, &s) != nil {
		return
	}
	ps.allow = append(ps.allow, bashRules(s.Permissions.Allow)...)
	ps.ask = append(ps.ask, bashRules(s.Permissions.Ask)...)
	ps.deny = append(ps.deny, bashRules(s.Permissions.Deny)...)
}

// bashRules keeps the specifiers of Bash rules ("*" for a bare Bash).
func bashRules(rules []string) []string {
	var out []string
	for _, r := range rules {
		r = strings.TrimSpace(r)
		switch {
		case r == "Bash":
			out = append(out, "*")
		case strings.HasPrefix(r, "Bash(") && strings.HasSuffix(r, ")"):
			out = append(out, r[len("Bash("):len(r)-1])
		}
	}
	return out
}

// allows reports whether cmd would run without a prompt: every simple
// command in it matches an allow rule, and none matches ask or deny.
func (ps claudePermissions) allows(cmd string, lang analyze.Lang) bool {
	parts := simpleCommands(cmd, lang)
	if len(parts) == 0 {
		return false
	}
	for _, c := range parts {
		if matchAny(ps.deny, c) || matchAny(ps.ask, c) || !matchAny(ps.allow, c) {
			return false
		}
	}
	return true
}

func matchAny(rules []string, cmd string) bool {
	for _, r := range rules {
		if matchBashRule(r, cmd) {
			return true
		}
	}
	return false
}

// matchBashRule matches one rule specifier against one simple command.
func matchBashRule(rule, cmd string) bool {
	if rule == "*" || rule == "" {
		return true
	}
	if prefix, ok := strings.CutSuffix(rule, ":*"); ok {
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !strings.Contains(rule, "*") {
		return cmd == rule
	}
	return glob(rule, cmd)
}

// glob matches with * as any text (and nothing else special).
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return strings.HasSuffix(s, p)
		}
		j := strings.Index(s, p)
		if j < 0 {
			return false
		}
		s = s[j+len(p):]
	}
	return true
}

// simpleCommands are the texts of the simple commands of cmd, as Claude
// Code splits a compound command for its rules; nil if it does not parse.
func simpleCommands(cmd string, lang analyze.Lang) []string {
	res, err := analyze.Run([]byte(cmd), analyze.WithLang(lang))
	if err != nil {
		return nil
	}
	var out []string
	syntax.Walk(res.File, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			out = append(out, strings.TrimSpace(cmd[ce.Pos().Offset():ce.End().Offset()]))
			return false
		}
		return true
	})
	return out
}
