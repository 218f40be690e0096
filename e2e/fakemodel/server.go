// Package fakemodel is a model server for driving real agent programs
// offline: it speaks just enough of each provider's API for one turn
// (Anthropic Messages, OpenAI Responses and Chat Completions, Gemini
// generateContent), streamed or not, and decides what the "model" says
// with a Brain the test provides. Every request body is logged, so the
// tool results the agent sends back show what really ran.
//
// Each dialect file turns a request into the neutral Conversation and a
// Reply into that API's answer; nothing else here knows the wire formats.
package fakemodel

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Tool is a tool the agent offers the model: its name and the JSON
// schema of its arguments, as the request gives them.
type Tool struct {
	Name   string
	Schema map[string]any
}

// Call is a tool call: one the model made earlier in the conversation,
// or the one it makes now.
type Call struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// Conversation is what a request holds, in no API's shape.
type Conversation struct {
	Dialect string
	Tools   []Tool
	// Calls are the model's earlier tool calls, Results the tool results
	// the agent sent back, each in order.
	Calls   []Call
	Results []string
}

// Reply is what the model answers: a tool call, else text.
type Reply struct {
	Call *Call
	Text string
}

// Brain decides the reply to one request.
type Brain func(Conversation) Reply

// Entry is one logged request.
type Entry struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Body   string    `json:"body"`
	Reply  *Reply    `json:"reply,omitempty"`
}

// Server serves the fake model on a loopback port.
type Server struct {
	Brain Brain
	// OnResult, if set, runs when a request first carries n tool results
	// (n = 1, 2, …), before the reply: the moment the agent's tool call
	// has returned and the agent is still running.
	OnResult func(n int)

	mu        sync.Mutex
	log       []Entry
	results   int
	firstCall time.Time
	srv       *http.Server
	URL       string
}

// Start listens on 127.0.0.1 at a free port.
func (s *Server) Start() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s.URL = "http://" + l.Addr().String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(l)
	return nil
}

// Waiting reports how long the model's first tool call has been waiting
// for its result (0: no call yet, or its result came).
func (s *Server) Waiting() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.firstCall.IsZero() || s.results > 0 {
		return 0
	}
	return time.Since(s.firstCall)
}

// Log returns the requests so far.
func (s *Server) Log() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Entry(nil), s.log...)
}

// WriteLog writes the log as JSON lines.
func (s *Server) WriteLog(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, e := range s.Log() {
		enc.Encode(e)
	}
	return f.Close()
}

// dialect is one API: whether it answers path, how it reads a request and
// how it writes a reply.
type dialect struct {
	name  string
	match func(path string) bool
	parse func(body []byte) (Conversation, bool, error) // conversation, stream
	write func(w http.ResponseWriter, r Reply, stream bool, model string)
}

var dialects []dialect

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	e := Entry{Time: time.Now(), Method: r.Method, Path: r.URL.String(), Body: string(body)}
	defer func() {
		s.mu.Lock()
		s.log = append(s.log, e)
		s.mu.Unlock()
	}()
	if r.Method == http.MethodGet {
		s.serveGet(w, r)
		return
	}
	if side(w, r.URL.Path) {
		return
	}
	for _, d := range dialects {
		if !d.match(r.URL.Path) {
			continue
		}
		conv, stream, err := d.parse(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		conv.Dialect = d.name
		s.mu.Lock()
		fire := len(conv.Results) > s.results
		if fire {
			s.results = len(conv.Results)
		}
		s.mu.Unlock()
		if fire && s.OnResult != nil {
			s.OnResult(len(conv.Results))
		}
		reply := s.Brain(conv)
		e.Reply = &reply
		s.mu.Lock()
		if reply.Call != nil && s.firstCall.IsZero() {
			s.firstCall = time.Now()
		}
		s.mu.Unlock()
		d.write(w, reply, stream || r.URL.Query().Get("alt") == "sse", modelOf(r.URL.Path, body))
		return
	}
	http.Error(w, "fakemodel: no dialect for "+r.URL.Path, http.StatusNotFound)
}

// side answers the calls around a turn that are not a turn: token counts
// and telemetry. It reports whether it answered.
func side(w http.ResponseWriter, path string) bool {
	switch {
	case strings.HasSuffix(path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	case strings.Contains(path, "event_logging"), strings.Contains(path, "telemetry"), strings.Contains(path, "/log"):
		writeJSON(w, map[string]any{})
	default:
		return false
	}
	return true
}

// serveGet lists one model for every API that asks (the agents check
// that the model they were told to use exists).
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{
		"object": "list",
		"data":   []any{map[string]any{"id": "fake-model", "object": "model", "type": "model", "display_name": "fake", "created": 0, "owned_by": "e2e"}},
		"models": []any{map[string]any{"name": "models/gemini-2.5-flash", "supportedGenerationMethods": []string{"generateContent"}}},
	})
}

func modelOf(path string, body []byte) string {
	var m struct {
		Model string `json:"model"`
	}
	json.Unmarshal(body, &m)
	if m.Model != "" {
		return m.Model
	}
	if i := strings.Index(path, "/models/"); i >= 0 {
		return strings.SplitN(path[i+len("/models/"):], ":", 2)[0]
	}
	return "fake-model"
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event (event may be "") and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// argsJSON is a call's arguments as the JSON text the APIs carry.
func argsJSON(c *Call) string {
	b, _ := json.Marshal(c.Args)
	return string(b)
}

// textOf flattens a tool result's content (a string, or a list of
// blocks with text) into text.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			b.WriteString(textOf(e))
			b.WriteString("\n")
		}
		return b.String()
	case map[string]any:
		for _, k := range []string{"text", "output", "content", "result", "llmContent", "error"} {
			if t, ok := x[k]; ok {
				if s := textOf(t); s != "" {
					return s
				}
			}
		}
		b, _ := json.Marshal(x)
		return string(b)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var idSeq struct {
	sync.Mutex
	n int
}

// newID returns a fresh id with prefix.
func newID(prefix string) string {
	idSeq.Lock()
	defer idSeq.Unlock()
	idSeq.n++
	return fmt.Sprintf("%s%d%d", prefix, time.Now().UnixNano()%1e6, idSeq.n)
}

// Parse reads a logged request as the dialect its path names.
func Parse(path string, body []byte) (Conversation, bool) {
	p := strings.SplitN(path, "?", 2)[0]
	for _, d := range dialects {
		if d.match(p) {
			c, _, err := d.parse(body)
			c.Dialect = d.name
			return c, err == nil
		}
	}
	return Conversation{}, false
}
