package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Anthropic Messages API (POST /v1/messages), as Claude Code speaks it:
// tools as {name, input_schema}; the model's calls are tool_use blocks of
// assistant messages, the results tool_result blocks of user messages.
func init() {
	dialects = append(dialects, dialect{
		name:  "anthropic",
		match: func(p string) bool { return strings.HasSuffix(p, "/v1/messages") },
		parse: parseAnthropic,
		write: writeAnthropic,
	})
}

func parseAnthropic(body []byte) (Conversation, bool, error) {
	var req struct {
		Stream bool `json:"stream"`
		Tools  []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Conversation{}, false, err
	}
	var c Conversation
	for _, t := range req.Tools {
		if t.Name != "" {
			c.Tools = append(c.Tools, Tool{Name: t.Name, Schema: t.InputSchema})
		}
	}
	for _, m := range req.Messages {
		var blocks []map[string]any
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string: text only
		}
		for _, b := range blocks {
			switch b["type"] {
			case "tool_use":
				args, _ := b["input"].(map[string]any)
				name, _ := b["name"].(string)
				c.Calls = append(c.Calls, Call{Name: name, Args: args})
			case "tool_result":
				c.Results = append(c.Results, textOf(b["content"]))
			}
		}
	}
	return c, req.Stream, nil
}

func writeAnthropic(w http.ResponseWriter, r Reply, stream bool, model string) {
	id := newID("msg_")
	block := map[string]any{"type": "text", "text": r.Text}
	stop := "end_turn"
	if r.Call != nil {
		block = map[string]any{"type": "tool_use", "id": newID("toolu_"), "name": r.Call.Name, "input": r.Call.Args}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	startSSE(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if r.Call != nil {
		start := map[string]any{"type": "tool_use", "id": block["id"], "name": r.Call.Name, "input": map[string]any{}}
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": start})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(r.Call)}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": r.Text}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
