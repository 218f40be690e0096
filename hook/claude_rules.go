package hook

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// claudeRules are the Bash permission rules of Claude Code's settings
// (https://code.claude.com/docs/en/permissions), read so that the hook
// never approves a rewrite of a command the user's rules would have
// prompted for or refused.
//
// What is modelled, from the docs:
//   - files: managed settings, ~/.claude/settings.json, the project's
//     .claude/settings.json and .claude/settings.local.json; every
//     file's rules count (deny at any level blocks);
//   - evaluation: deny, then ask, then allow; the first match decides;
//   - `Bash` and `Bash(*)` match every command; `Bash(npm run build)`
//     only that command; `Bash(npm run test:*)` (legacy prefix) the prefix
//     alone or followed by a space; `*` any sequence, with ` *` at the
//     end also matching nothing (`Bash(ls *)`: `ls`, `ls -la`, not `lsof`);
//   - a compound command (&&, ||, ;, |, &) is allowed only when each part
//     is; a part that is not a plain command (subshell, loop, command
//     substitution...) is never allowed by a rule here: shguard asks;
//   - the wrappers timeout, nice, nohup are stripped before matching.
//
// Not modelled, each on the side of asking: Claude Code's built-in
// read-only commands, the managed-settings.d drop-in directory, rules
// given on the command line, and acceptEdits' file commands.
type claudeRules struct {
	allow, ask, deny []string
}

// managedSettings is Claude Code's managed settings file per OS.
func managedSettings(goos string) string {
	switch goos {
	case "linux":
		return "/etc/claude-code/managed-settings.json"
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	return ""
}

func loadClaudeRules(env Env, project string) claudeRules {
	var files []string
	if p := managedSettings(env.GOOS); p != "" {
		files = append(files, p)
	}
	if env.Home != "" {
		files = append(files, filepath.Join(env.Home, ".claude", "settings.json"))
	}
	if project != "" {
		files = append(files, filepath.Join(project, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.local.json"))
	}
	var r claudeRules
	for _, f := range files {
		if env.ReadFile == nil {
			break
		}
		b, err := env.ReadFile(f)
		if err != nil {
			continue
		}
		var s struct {
			Permissions struct {
				Allow, Ask, Deny []string
			} `json:"permissions"`
		}
		if json.Unmarshal(b, &s) != nil {
			continue // Claude Code reports a broken file; no rule from it
		}
		r.allow = append(r.allow, s.Permissions.Allow...)
		r.ask = append(r.ask, s.Permissions.Ask...)
		r.deny = append(r.deny, s.Permissions.Deny...)
	}
	return r
}

// decide says what Claude Code's rules do with cmd: "deny", "ask",
// "allow" or "" (no rule: the permission mode decides).
func (r claudeRules) decide(cmd string) string {
	parts, plain, all := commandParts(cmd)
	for _, list := range []struct {
		rules []string
		name  string
	}{{r.deny, "deny"}, {r.ask, "ask"}} {
		for _, p := range append(all, strings.TrimSpace(cmd)) {
			if anyRule(list.rules, p) {
				return list.name
			}
		}
	}
	if !plain || len(parts) == 0 {
		return ""
	}
	for _, p := range parts {
		if !anyRule(r.allow, p) {
			return ""
		}
	}
	return "allow"
}

// permits reports whether cmd runs without a prompt under the rules and
// the permission mode.
func (r claudeRules) permits(cmd, mode string) bool {
	switch r.decide(cmd) {
	case "allow":
		return true
	case "":
		return mode == "bypassPermissions"
	}
	return false
}

func anyRule(rules []string, cmd string) bool {
	for _, rule := range rules {
		if bashRuleMatches(rule, cmd) {
			return true
		}
	}
	return false
}

// bashRuleMatches reports whether one permission rule matches one plain
// command.
func bashRuleMatches(rule, cmd string) bool {
	rule = strings.TrimSpace(rule)
	if rule == "Bash" {
		return true
	}
	spec, ok := strings.CutPrefix(rule, "Bash(")
	if !ok || !strings.HasSuffix(spec, ")") {
		return false
	}
	spec = strings.TrimSuffix(spec, ")")
	if spec == "*" || spec == "" {
		return true
	}
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return cmd == prefix || strings.HasPrefix(cmd, prefix+" ")
	}
	if !strings.Contains(spec, "*") {
		return cmd == spec
	}
	var re strings.Builder
	re.WriteString("^")
	if head, ok := strings.CutSuffix(spec, " *"); ok && strings.Count(spec, "*") == 1 {
		re.WriteString(regexp.QuoteMeta(head) + "( .*)?")
	} else {
		for i, lit := range strings.Split(spec, "*") {
			if i > 0 {
				re.WriteString(".*")
			}
			re.WriteString(regexp.QuoteMeta(lit))
		}
	}
	re.WriteString("$")
	m, err := regexp.MatchString(re.String(), cmd)
	return err == nil && m
}

// commandParts splits a command at &&, ||, ;, | and & into its plain
// commands (source text, wrappers stripped). plain is false when a part
// is anything else (a subshell, a loop, a command substitution...), or
// the command does not parse. all holds every simple command anywhere
// in it, substitutions and loops included: a deny or ask rule that
// matches any of them decides.
func commandParts(cmd string) (parts []string, plain bool, all []string) {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, false, nil
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			all = append(all, stripWrappers(cmd[c.Pos().Offset():c.End().Offset()]))
		}
		return true
	})
	plain = true
	var stmt func(s *syntax.Stmt)
	var cmdOf func(c syntax.Command)
	cmdOf = func(c syntax.Command) {
		switch c := c.(type) {
		case *syntax.BinaryCmd:
			stmt(c.X)
			stmt(c.Y)
		case *syntax.CallExpr:
			hidden := false
			syntax.Walk(c, func(n syntax.Node) bool {
				switch n.(type) {
				case *syntax.CmdSubst, *syntax.ProcSubst:
					hidden = true
				}
				return !hidden
			})
			if hidden || len(c.Args) == 0 {
				plain = false
				return
			}
			parts = append(parts, stripWrappers(cmd[c.Pos().Offset():c.End().Offset()]))
		default:
			plain = false
		}
	}
	stmt = func(s *syntax.Stmt) {
		if s.Cmd == nil {
			plain = false
			return
		}
		for _, r := range s.Redirs {
			if r.Word != nil {
				syntax.Walk(r.Word, func(n syntax.Node) bool {
					if _, ok := n.(*syntax.CmdSubst); ok {
						plain = false
					}
					return true
				})
			}
		}
		cmdOf(s.Cmd)
	}
	for _, s := range f.Stmts {
		stmt(s)
	}
	return parts, plain, all
}

// stripWrappers drops the process wrappers Claude Code strips before
// matching: `timeout 30 npm test` is matched as `npm test`.
func stripWrappers(c string) string {
	for {
		f := strings.Fields(c)
		if len(f) < 2 {
			return c
		}
		n := 0
		switch f[0] {
		case "nohup":
			n = 1
		case "timeout":
			n = 1
			for n < len(f)-1 && strings.HasPrefix(f[n], "-") {
				n++
			}
			n++ // the duration
		case "nice":
			n = 1
			if f[1] == "-n" && len(f) > 3 {
				n = 3
			} else if strings.HasPrefix(f[1], "-") {
				n = 2
			}
		default:
			return c
		}
		if n >= len(f) {
			return c
		}
		c = strings.Join(f[n:], " ")
	}
}
