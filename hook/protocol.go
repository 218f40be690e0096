package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Env is what an adapter may read besides the payload: environment
// variables (CLAUDE_CODE_SHELL, $SHELL...) and files (Claude Code's
// permission settings). The caller supplies the real ones; tests fake
// them.
type Env struct {
	Getenv   func(string) string
	ReadFile func(string) ([]byte, error)
	// Home is the user's home directory ("" unknown).
	Home string
	// GOOS chooses the managed settings path ("linux", "darwin"...).
	GOOS string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Call is one parsed payload: the neutral request, what the agent
// honours, and how to write its answer.
type Call struct {
	Request
	Caps Caps
	// Render writes the agent's answer to the neutral one; nil output
	// means print nothing (the call goes ahead as it is).
	Render func(Answer) ([]byte, error)
}

// Protocol is one agent's pre-tool hook protocol.
type Protocol struct {
	// Name is the --protocol value, Agent the agent's name.
	Name, Agent string
	// Parse reads a payload. A nil Call and nil error: not a shell call
	// of the hook event this adapter answers; print nothing.
	Parse func(payload []byte, env Env) (*Call, error)
	// ErrorExit is the exit status that reports a hook error (a payload
	// it cannot read) without blocking the agent's tool call.
	ErrorExit int
	// Detect says whether a decoded payload has this agent's shape.
	Detect func(m map[string]json.RawMessage) bool
	// DetectRule says in words how Detect decides (for --help).
	DetectRule string
	// Direct, when set, answers the payload itself instead of Parse and
	// Respond (the generic json shape, which hands back a plan).
	Direct func(payload []byte, opt Options) ([]byte, error)
}

// Protocols lists the agents in the order Detect tries them: the most
// specific shapes first, the generic {"command"} last.
var Protocols = []*Protocol{Copilot, Cline, Cursor, OpenCode, Qwen, Gemini, Crush, Codex, Claude, JSON}

// Lookup returns the protocol named name, or nil.
func Lookup(name string) *Protocol {
	for _, p := range Protocols {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names lists the protocol names.
func Names() []string {
	var ns []string
	for _, p := range Protocols {
		ns = append(ns, p.Name)
	}
	return ns
}

// Detect names the protocol whose shape the payload has. It returns an
// error for a payload that is not a JSON object or has no known shape.
func Detect(payload []byte) (*Protocol, error) {
	m, err := object(payload, "")
	if err != nil {
		return nil, fmt.Errorf("hook input is not one of the known agents' payloads: %v", err)
	}
	for _, p := range Protocols {
		if p.Detect(m) {
			return p, nil
		}
	}
	return nil, errors.New("hook input is not one of the known agents' payloads (use --protocol NAME)")
}

// object decodes a payload that must be a JSON object: the hook decodes
// every payload this way (Detect, and the adapters that read fields from
// the map), which is cheaper on the hook's one short run than decoding into
// structs, whose reflected field tables are built on first use. The error
// names what was expected ("Claude Code PreToolUse").
//
// Detect and then the adapter ask for the same payload: the last one
// decoded is kept (lastObject), so the hook decodes it once (decoding it
// twice was 45K instructions of a clean call's 870K, callgrind). The map
// is shared: callers only read it.
func object(payload []byte, what string) (map[string]json.RawMessage, error) {
	if m := lastObject.get(payload); m != nil {
		return m, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return nil, notObject(what, err)
	}
	if m == nil {
		return nil, notObject(what, "null")
	}
	lastObject.put(payload, m)
	return m, nil
}

// lastObject is the last payload object decoded, and its map.
var lastObject objectMemo

type objectMemo struct {
	mu      sync.Mutex
	payload []byte
	m       map[string]json.RawMessage
}

func (o *objectMemo) get(payload []byte) map[string]json.RawMessage {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m != nil && bytes.Equal(o.payload, payload) {
		return o.m
	}
	return nil
}

func (o *objectMemo) put(payload []byte, m map[string]json.RawMessage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.payload, o.m = bytes.Clone(payload), m
}

// decode reads a payload that must be a JSON object into the struct v.
func decode(payload []byte, v any, what string) error {
	if _, err := object(payload, what); err != nil {
		return err
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return notObject(what, err)
	}
	return nil
}

func notObject(what string, why any) error {
	if what != "" {
		what += " "
	}
	return fmt.Errorf("hook input is not a %sJSON object: %v", what, why)
}

// field decodes the field k of m into v, when present; the error names
// the field, as a struct's decoding would.
func field(m map[string]json.RawMessage, k string, v any) error {
	raw, ok := m[k]
	if !ok {
		return nil
	}
	if p, ok := v.(*string); ok {
		if s, ok := plainString(raw); ok {
			*p = s
			return nil
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%q: %v", k, err)
	}
	return nil
}

// str reads a string field; "" when absent or not a string.
func str(m map[string]json.RawMessage, k string) string {
	var s string
	if raw, ok := m[k]; ok {
		if p, ok := plainString(raw); ok {
			return p
		}
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// plainString reads a JSON string that has nothing to unescape, as most
// of a payload's fields are, without json.Unmarshal: that validates the
// value again and decodes it by reflection, and Detect asks each protocol
// for its fields in turn (about 15K instructions of a clean hook call,
// callgrind). raw is a value of a map that json.Unmarshal decoded, so it
// is valid JSON; a string with escapes or with bytes beyond ASCII (which
// json.Unmarshal checks for UTF-8) goes the long way.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return "", false
		}
	}
	return string(body), true
}

// truthy reads a boolean field, also when an agent stringified it
// ("true", as Cline's extension does with every parameter).
func truthy(m map[string]json.RawMessage, k string) bool {
	raw, ok := m[k]
	if !ok {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	return strings.EqualFold(str(m, k), "true")
}

// envTrue reads an environment flag the way Node agents do: set and not
// "0"/"false".
func envTrue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false" && v != "no"
}

// command reads the required string "command" of a tool input.
func command(in map[string]json.RawMessage, tool string) (string, error) {
	raw, ok := in["command"]
	if !ok {
		return "", fmt.Errorf(`hook input: %s tool_input has no "command"`, tool)
	}
	var cmd string
	if err := json.Unmarshal(raw, &cmd); err != nil {
		return "", fmt.Errorf(`hook input: %s tool_input "command" is not a string: %v`, tool, err)
	}
	return cmd, nil
}

// withCommand copies a tool input with command replaced and, when bg,
// the background field set: agents that replace the whole input
// (Claude Code, Gemini CLI) must get every field back.
func withCommand(in map[string]json.RawMessage, cmd, bgField string, bg bool) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	out["command"] = mustJSON(cmd)
	if bg && bgField != "" {
		out[bgField] = json.RawMessage("true")
	}
	return out
}
