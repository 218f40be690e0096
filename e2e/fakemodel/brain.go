package fakemodel

import (
	"regexp"
	"strings"
)

// Shell is the model of the e2e cases: it runs Command once with the
// agent's shell tool (the first offered tool that Pick accepts), and when
// the result is a refusal that spells out the command to run instead, it
// runs that once, as a model would; then it ends the turn. A request that
// offers no such tool (titles, classifiers, summaries) gets text.
type Shell struct {
	Command string
	Pick    func(Tool) bool
	// Wait, if set, picks a tool to call while the shell tool is not
	// offered yet (Claude Code offers WaitForMcpServers until its MCP
	// servers have connected), as a model would.
	Wait func(Tool) bool
	// Done is the final text.
	Done string
}

// maxCalls bounds the turn: the command, then at most one retry.
const maxCalls = 2

// Brain returns the Brain.
func (s Shell) Brain() Brain {
	return func(c Conversation) Reply {
		var tool *Tool
		for i := range c.Tools {
			if s.Pick(c.Tools[i]) {
				tool = &c.Tools[i]
				break
			}
		}
		if tool == nil {
			for _, t := range c.Tools {
				if s.Wait != nil && s.Wait(t) && len(c.Calls) < maxCalls {
					return Reply{Call: &Call{Name: t.Name, Args: Args(t.Schema, "", "")}}
				}
			}
			return Reply{Text: "e2e"}
		}
		n := 0
		for _, call := range c.Calls {
			if call.Name == tool.Name {
				n++
			}
		}
		if n == 0 {
			return Reply{Call: &Call{Name: tool.Name, Args: Args(tool.Schema, s.Command, "")}}
		}
		if n < maxCalls && len(c.Results) > 0 {
			if cmd, bg := Suggested(c.Results[len(c.Results)-1]); cmd != "" {
				return Reply{Call: &Call{Name: tool.Name, Args: Args(tool.Schema, cmd, bg)}}
			}
		}
		return Reply{Text: s.Done}
	}
}

// Args fills a shell tool's arguments from its schema: the command goes
// in the property that takes it (command, cmd, or a list of commands or
// of argv words), background (a property name, "" none) is set true, and
// every other required property gets a plain value of its type.
func Args(schema map[string]any, cmd, background string) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	args := map[string]any{}
	for _, k := range []string{"command", "cmd", "commands"} {
		p, ok := props[k].(map[string]any)
		if !ok {
			continue
		}
		if p["type"] == "array" {
			if k == "commands" {
				args[k] = []any{cmd}
			} else {
				args[k] = []any{"bash", "-lc", cmd}
			}
		} else {
			args[k] = cmd
		}
		break
	}
	if background != "" {
		if _, ok := props[background]; ok {
			args[background] = true
		}
	}
	req, _ := schema["required"].([]any)
	for _, r := range req {
		k, _ := r.(string)
		if _, ok := args[k]; ok || k == "" {
			continue
		}
		p, _ := props[k].(map[string]any)
		switch p["type"] {
		case "boolean":
			args[k] = false
		case "number", "integer":
			args[k] = 30
		case "array":
			args[k] = []any{}
		case "object":
			args[k] = map[string]any{}
		default:
			args[k] = "e2e"
			if en, ok := p["enum"].([]any); ok && len(en) > 0 {
				args[k] = en[0]
			}
		}
	}
	return args
}

var (
	// "Run this instead, …:\nCMD" (the command on the next lines).
	insteadRe = regexp.MustCompile(`(?s)[Rr]un this instead[^\n]*:\n(.+)`)
	// "Run it again as: `CMD` with PARAM: true".
	againRe = regexp.MustCompile("(?s)[Rr]un it again as: `(.+?)` with ([A-Za-z_]+): true")
)

// Suggested reads a refusal for the command it says to run instead, and
// the background parameter to set with it ("" none). "" when the result
// suggests nothing.
func Suggested(result string) (cmd, background string) {
	if m := againRe.FindStringSubmatch(result); m != nil {
		return m[1], m[2]
	}
	if m := insteadRe.FindStringSubmatch(result); m != nil {
		cmd = m[1]
		// The command ends where the hook's note or the agent's own text
		// starts: a line opening with "(" or a blank line.
		for _, stop := range []string{"\n(", "\n\n"} {
			if i := strings.Index(cmd, stop); i >= 0 {
				cmd = cmd[:i]
			}
		}
		return strings.TrimSpace(cmd), ""
	}
	return "", ""
}
