package hook

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendJSONString writes strings as encoding/json does without HTML
// escaping.
func TestAppendJSONStringLikeEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `a "quoted" \ back\slash`, "cd app && npm run dev </dev/null >log 2>&1 &",
		"tab\tnl\ncr\rbs\bff\fnul\x00esc\x1bdel\x7f", "bad utf8 \xff\xfe end \xe2\x82",
		"ünïcödé ✓ 😀 \u2028 \u2029 \uFFFD", "\U0010FFFF",
	} {
		want, err := marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(bytes.TrimSuffix(want, []byte("\n"))) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// claudeAnswerByEncoder is claudeAnswer as it was written with
// encoding/json, which the hand-written one must match byte for byte.
func claudeAnswerByEncoder(toolInput map[string]json.RawMessage, a Answer) ([]byte, error) {
	type specific struct {
		HookEventName            string                     `json:"hookEventName"`
		PermissionDecision       string                     `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string                     `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
		AdditionalContext        string                     `json:"additionalContext,omitempty"`
	}
	sp := specific{HookEventName: "PreToolUse", AdditionalContext: a.Context}
	switch a.Kind {
	case Refuse:
		sp.PermissionDecision, sp.PermissionDecisionReason = "deny", a.Reason
	case Change:
		sp.PermissionDecision, sp.PermissionDecisionReason = "ask", a.Reason
		if a.Approve {
			sp.PermissionDecision = "allow"
		}
		sp.UpdatedInput = withCommand(toolInput, a.Command, "run_in_background", a.Background)
	default:
		if a.Context == "" {
			return nil, nil
		}
	}
	return marshal(map[string]any{"hookSpecificOutput": sp})
}

func TestClaudeAnswerLikeEncodingJSON(t *testing.T) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal([]byte(`{"command": "cd web && npm run dev &", "description" : "Start <it>",
		"timeout": 600000, "nested": {"b": [1, 2, {"x": null}], "a": "\u00e9\n"}, "run_in_background": false}`), &in); err != nil {
		t.Fatal(err)
	}
	for _, a := range []Answer{
		{},
		{Context: "advice\nwith \"quotes\" & <tags>"},
		{Kind: Refuse, Reason: "would hang: `server &`"},
		{Kind: Refuse},
		{Kind: Change, Command: "cd web && exec npm run dev >.shguard/jobs/x.log 2>&1 &", Reason: "changed", Context: "ctx"},
		{Kind: Change, Command: "npm run dev", Background: true, Approve: true},
		{Kind: Change, Command: "bad \xff utf8 \u2028"},
	} {
		want, err := claudeAnswerByEncoder(in, a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := claudeAnswer(in, a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("answer %+v:\n got %s\nwant %s", a, got, want)
		}
	}
}
