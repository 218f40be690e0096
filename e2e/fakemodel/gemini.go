package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Gemini API (POST …/models/M:generateContent and
// :streamGenerateContent?alt=sse), as Gemini CLI speaks it: tools as
// functionDeclarations (parameters or parametersJsonSchema); the model's
// calls are functionCall parts, the results functionResponse parts.
func init() {
	dialects = append(dialects, dialect{
		name: "gemini",
		match: func(p string) bool {
			return strings.HasSuffix(p, ":generateContent") || strings.HasSuffix(p, ":streamGenerateContent")
		},
		parse: parseGemini,
		write: writeGemini,
	})
}

func parseGemini(body []byte) (Conversation, bool, error) {
	var req struct {
		Tools []struct {
			FunctionDeclarations []struct {
				Name                 string         `json:"name"`
				Parameters           map[string]any `json:"parameters"`
				ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		Contents []struct {
			Parts []struct {
				FunctionCall *struct {
					Name string         `json:"name"`
					Args map[string]any `json:"args"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					Response any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return Conversation{}, false, err
	}
	var c Conversation
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			s := f.Parameters
			if s == nil {
				s = f.ParametersJSONSchema
			}
			c.Tools = append(c.Tools, Tool{Name: f.Name, Schema: s})
		}
	}
	for _, ct := range req.Contents {
		for _, p := range ct.Parts {
			if p.FunctionCall != nil {
				c.Calls = append(c.Calls, Call{Name: p.FunctionCall.Name, Args: p.FunctionCall.Args})
			}
			if p.FunctionResponse != nil {
				c.Results = append(c.Results, textOf(p.FunctionResponse.Response))
			}
		}
	}
	return c, false, nil // streaming is asked for in the URL (alt=sse)
}

func writeGemini(w http.ResponseWriter, r Reply, stream bool, model string) {
	part := map[string]any{"text": r.Text}
	if r.Call != nil {
		part = map[string]any{"functionCall": map[string]any{"name": r.Call.Name, "args": r.Call.Args}}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  model,
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}
