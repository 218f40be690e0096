package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// OpenAI Chat Completions (POST …/chat/completions), as Copilot CLI,
// Cline, OpenCode and Qwen Code speak it against an OpenAI-compatible
// provider: tools as {type: "function", function: {name, parameters}};
// the model's calls are tool_calls of assistant messages, the results
// messages with role "tool".
func init() {
	dialects = append(dialects, dialect{
		name:  "chat",
		match: func(p string) bool { return strings.HasSuffix(p, "/chat/completions") },
		parse: parseChat,
		write: writeChat,
	})
}

func parseChat(body []byte) (Conversation, bool, error) {
	var req struct {
		Stream bool `json:"stream"`
		Tools  []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role      string `json:"role"`
			Content   any    `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Conversation{}, false, err
	}
	var c Conversation
	for _, t := range req.Tools {
		if t.Function.Name != "" {
			c.Tools = append(c.Tools, Tool{Name: t.Function.Name, Schema: t.Function.Parameters})
		}
	}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			var args map[string]any
			json.Unmarshal([]byte(tc.Function.Arguments), &args)
			c.Calls = append(c.Calls, Call{Name: tc.Function.Name, Args: args})
		}
		if m.Role == "tool" {
			c.Results = append(c.Results, textOf(m.Content))
		}
	}
	return c, req.Stream, nil
}

func writeChat(w http.ResponseWriter, r Reply, stream bool, model string) {
	id := newID("chatcmpl-")
	msg := map[string]any{"role": "assistant", "content": r.Text}
	finish := "stop"
	if r.Call != nil {
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": newID("call_"), "type": "function",
			"function": map[string]any{"name": r.Call.Name, "arguments": argsJSON(r.Call)}}}}
		finish = "tool_calls"
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	// Streamed as OpenAI streams: the role and the call's id and name,
	// then its arguments, then the finish reason, then (asked for with
	// stream_options.include_usage, sent anyway) a chunk of usage alone.
	startSSE(w)
	chunk := func(delta map[string]any, fin any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}}
	}
	if r.Call != nil {
		tc := msg["tool_calls"].([]any)[0].(map[string]any)
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": tc["id"], "type": "function", "function": map[string]any{"name": r.Call.Name, "arguments": ""}}}}, nil))
		sse(w, "", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": 0, "function": map[string]any{"arguments": argsJSON(r.Call)}}}}, nil))
	} else {
		sse(w, "", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		sse(w, "", chunk(map[string]any{"content": r.Text}, nil))
	}
	sse(w, "", chunk(map[string]any{}, finish))
	sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model, "choices": []any{}, "usage": usage})
	w.Write([]byte("data: [DONE]\n\n"))
}
