package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// OpenAI Responses API (POST …/responses), as Codex speaks it: tools as
// {type: "function", name, parameters}; the conversation is a list of
// input items where the model's calls are function_call items (arguments
// a JSON string) and the results function_call_output items.
func init() {
	dialects = append(dialects, dialect{
		name:  "responses",
		match: func(p string) bool { return strings.HasSuffix(p, "/responses") },
		parse: parseResponses,
		write: writeResponses,
	})
}

func parseResponses(body []byte) (Conversation, bool, error) {
	var req struct {
		Stream bool             `json:"stream"`
		Tools  []map[string]any `json:"tools"`
		Input  json.RawMessage  `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Conversation{}, false, err
	}
	var c Conversation
	for _, t := range req.Tools {
		name, _ := t["name"].(string)
		schema, _ := t["parameters"].(map[string]any)
		if name != "" {
			c.Tools = append(c.Tools, Tool{Name: name, Schema: schema})
		}
	}
	var items []map[string]any
	json.Unmarshal(req.Input, &items) // a plain string input has no calls
	for _, it := range items {
		switch it["type"] {
		case "function_call":
			name, _ := it["name"].(string)
			var args map[string]any
			if s, ok := it["arguments"].(string); ok {
				json.Unmarshal([]byte(s), &args)
			}
			c.Calls = append(c.Calls, Call{Name: name, Args: args})
		case "function_call_output", "custom_tool_call_output":
			c.Results = append(c.Results, textOf(it["output"]))
		}
	}
	return c, req.Stream, nil
}

func writeResponses(w http.ResponseWriter, r Reply, stream bool, model string) {
	id := newID("resp_")
	item := map[string]any{"type": "message", "id": newID("msg_"), "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": r.Text, "annotations": []any{}}}}
	if r.Call != nil {
		item = map[string]any{"type": "function_call", "id": newID("fc_"), "call_id": newID("call_"),
			"name": r.Call.Name, "arguments": argsJSON(r.Call), "status": "completed"}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	done := map[string]any{"id": id, "object": "response", "status": "completed", "model": model, "output": []any{item}, "usage": usage}
	if !stream {
		writeJSON(w, done)
		return
	}
	startSSE(w)
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id, "object": "response", "status": "in_progress", "model": model, "output": []any{}}})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if r.Call == nil {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": r.Text})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": done})
}
