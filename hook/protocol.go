package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/shguard/shguard/analyze"
)

// Protocol is one agent's pre-tool hook protocol: how to recognise its
// payload, how to answer it, and which exit status reports bad input
// without blocking the agent's tool. Each agent has a file of its own
// (claude.go, codex.go, …); ../../shared/agents.md has the sources.
type Protocol struct {
	Name string
	// Agent is the product, for help texts.
	Agent string
	// detect reports whether a decoded payload has this agent's shape.
	detect func(p payload) bool
	// answer decides for one payload.
	answer func(p payload, opt Options) (*Answer, error)
	// BadInputExit is the exit status for a payload that cannot be read:
	// one the agent treats as a non-blocking hook error (Copilot denies
	// the tool on any non-zero exit, so 0 there).
	BadInputExit int
}

// Answer is what to print on stdout (nothing when empty), with which exit
// status, and the decision behind it.
type Answer struct {
	Stdout  []byte
	Exit    int
	Outcome *Outcome // nil when the payload was not a shell command to judge
}

// payload is a hook input decoded one level deep.
type payload map[string]json.RawMessage

func (p payload) str(key string) string {
	var s string
	if raw, ok := p[key]; ok {
		json.Unmarshal(raw, &s)
	}
	return s
}

func (p payload) has(key string) bool { _, ok := p[key]; return ok }

func (p payload) object(key string) payload {
	var o payload
	if raw, ok := p[key]; ok {
		json.Unmarshal(raw, &o)
	}
	return o
}

var protocols = map[string]*Protocol{}

func register(p *Protocol) *Protocol { protocols[p.Name] = p; return p }

// Lookup returns the protocol named name, or nil.
func Lookup(name string) *Protocol { return protocols[name] }

// Names lists the protocols, sorted.
func Names() []string {
	var ns []string
	for n := range protocols {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// detectOrder tries the most specific shapes first: Copilot's toolArgs,
// Cline's hookName, Cursor's top-level command with its event name,
// Gemini's BeforeTool, Crush's event, Codex's turn_id, then Claude's
// hook_event_name or tool_name, and a bare command last.
var detectOrder = []string{"copilot", "cline", "cursor", "gemini", "crush", "codex", "claude", "json"}

// Detect returns the protocol whose shape the payload has, or nil.
func Detect(raw []byte) *Protocol {
	var p payload
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	for _, name := range detectOrder {
		if pr := protocols[name]; pr != nil && pr.detect(p) {
			return pr
		}
	}
	return nil
}

// Handle reads one payload of protocol pr and answers it. A payload that
// cannot be read gives the protocol's non-blocking exit status and an
// error for stderr.
func (pr *Protocol) Handle(raw []byte, opt Options) (*Answer, error) {
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil || p == nil {
		if err == nil {
			err = errors.New("null")
		}
		return &Answer{Exit: pr.BadInputExit}, fmt.Errorf("hook input is not a %s JSON object: %v", pr.Agent, err)
	}
	a, err := pr.answer(p, opt)
	if err != nil {
		return &Answer{Exit: pr.BadInputExit}, err
	}
	return a, nil
}

// decide runs Decide for a command, treating a command that is not valid
// shell as nothing to judge (the shell will say so itself).
func decide(cmd string, opt Options) (*Outcome, error) {
	out, err := Decide(cmd, opt)
	var pe *analyze.ParseError
	if errors.As(err, &pe) {
		return nil, nil
	}
	return out, err
}

// commandOf reads a string command field.
func commandOf(o payload, key, what string) (string, error) {
	raw, ok := o[key]
	if !ok {
		return "", fmt.Errorf("hook input: %s has no %q", what, key)
	}
	var cmd string
	if err := json.Unmarshal(raw, &cmd); err != nil {
		return "", fmt.Errorf("hook input: %s %q is not a string: %v", what, key, err)
	}
	return cmd, nil
}

// insteadText is a deny reason that says exactly what to run instead: the
// rewritten command when there is one.
func insteadText(out *Outcome) string {
	if out.Deny != "" {
		return out.Deny
	}
	return "shguard: this command would hang the tool: " + why(out.Findings) +
		". Run this instead, which keeps what it does and cannot hang:\n" + out.Command
}

func mustJSON(s string) json.RawMessage {
	b, _ := marshalJSON(s)
	return bytes.TrimSuffix(b, []byte("\n"))
}

func marshal(v any) ([]byte, error) { return marshalJSON(v) }

// copyInput is a tool input with command (and, for a job moved to the
// agent's background mode, the background field) replaced.
func copyInput(in payload, cmdKey string, out *Outcome, bgKey string) map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(in)+1)
	for k, v := range in {
		m[k] = v
	}
	m[cmdKey] = mustJSON(out.Command)
	if out.Background && bgKey != "" {
		m[bgKey] = json.RawMessage("true")
	}
	return m
}

// nobodyAsked reports whether a Claude-style permission_mode means the
// user is never asked.
func nobodyAsked(mode string) bool { return mode == "dontAsk" || mode == "bypassPermissions" }

func lower(s string) string { return strings.ToLower(s) }
