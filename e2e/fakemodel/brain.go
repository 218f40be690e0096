package fakemodel

import (
	"regexp"
	"strings"
)

// Shell is the model of the e2e cases: it runs Command once with the
// agent's shell tool (the first offered tool that Pick accepts), and when
// the result is a refusal that spells out what to run instead (one
// command, or a plan of calls: each job in the background mode, then the
// rest), it runs that, each step once, as a model would; then it ends
// the turn. A request that
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

// maxCalls bounds the calls of the wait tool; the shell tool is called
// once and then once per step of the refusal's plan.
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
		n, first := 0, -1
		for i, call := range c.Calls {
			if call.Name == tool.Name {
				if n == 0 {
					first = i
				}
				n++
			}
		}
		if n == 0 {
			return Reply{Call: &Call{Name: tool.Name, Args: Args(tool.Schema, s.Command, "")}}
		}
		// The first call's result says what to run instead, if anything;
		// each later call ran one step of it.
		if first < len(c.Results) {
			if plan := Suggested(c.Results[first]); n-1 < len(plan) {
				st := plan[n-1]
				return Reply{Call: &Call{Name: tool.Name, Args: Args(tool.Schema, st.Command, st.Background)}}
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
	// "Run it again as its own call with PARAM: true:\nCMD".
	againRe = regexp.MustCompile(`(?s)[Rr]un it again as its own call with ([A-Za-z_]+): true:\n(.+)`)
	// "Run instead, each as its own call:" then lines "- `CMD` with
	// PARAM: true", "- CMD" and "- then: CMD".
	planRe = regexp.MustCompile(`(?s)[Rr]un instead, each as its own call:\n(.+)`)
	bgStep = regexp.MustCompile("^`(.+)` with ([A-Za-z_]+): true$")
)

// Step is one call a refusal asks for: a command, and the background
// parameter to set true with it ("" none).
type Step struct{ Command, Background string }

// Suggested reads a refusal for what it says to run instead: one
// command, or a plan of calls in order. nil when it suggests nothing.
func Suggested(result string) []Step {
	if m := againRe.FindStringSubmatch(result); m != nil {
		return []Step{{firstCommand(m[2]), m[1]}}
	}
	if m := insteadRe.FindStringSubmatch(result); m != nil {
		return []Step{{firstCommand(m[1]), ""}}
	}
	m := planRe.FindStringSubmatch(result)
	if m == nil {
		return nil
	}
	var plan []Step
	for _, l := range strings.Split(firstCommand(m[1]), "\n") {
		l, ok := strings.CutPrefix(l, "- ")
		if !ok {
			break
		}
		l = strings.TrimPrefix(l, "then: ")
		if b := bgStep.FindStringSubmatch(l); b != nil {
			plan = append(plan, Step{b[1], b[2]})
		} else {
			plan = append(plan, Step{l, ""})
		}
	}
	return plan
}

// firstCommand is the text of a suggestion up to where the hook's note or
// the agent's own text starts: a line opening with "(" or a blank line.
func firstCommand(s string) string {
	for _, stop := range []string{"\n(", "\n\n"} {
		if i := strings.Index(s, stop); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}
