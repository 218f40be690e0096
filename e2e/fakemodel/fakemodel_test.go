package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// shellTool is a shell tool's schema as the agents send it.
var shellTool = map[string]any{"type": "object", "required": []any{"command"},
	"properties": map[string]any{"command": map[string]any{"type": "string"}, "description": map[string]any{"type": "string"}}}

// requests are one first-turn request per dialect, offering the shell
// tool, and the same conversation after the tool ran.
var requests = []struct {
	path, first, second string
}{
	{"/v1/messages", `{"stream":true,"tools":[{"name":"Bash","input_schema":SCHEMA}],"messages":[{"role":"user","content":"go"}]}`,
		`{"stream":true,"tools":[{"name":"Bash","input_schema":SCHEMA}],"messages":[{"role":"user","content":"go"},
		 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo hi"}}]},
		 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"RESULT-TEXT"}]}]}]}`},
	{"/v1/responses", `{"stream":true,"tools":[{"type":"function","name":"Bash","parameters":SCHEMA}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`,
		`{"stream":true,"tools":[{"type":"function","name":"Bash","parameters":SCHEMA}],"input":[{"type":"function_call","call_id":"c1","name":"Bash","arguments":"{\"command\":\"echo hi\"}"},
		 {"type":"function_call_output","call_id":"c1","output":"RESULT-TEXT"}]}`},
	{"/v1/chat/completions", `{"stream":true,"tools":[{"type":"function","function":{"name":"Bash","parameters":SCHEMA}}],"messages":[{"role":"user","content":"go"}]}`,
		`{"stream":true,"tools":[{"type":"function","function":{"name":"Bash","parameters":SCHEMA}}],"messages":[{"role":"user","content":"go"},
		 {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"echo hi\"}"}}]},
		 {"role":"tool","tool_call_id":"c1","content":"RESULT-TEXT"}]}`},
	{"/v1beta/models/m:streamGenerateContent?alt=sse", `{"tools":[{"functionDeclarations":[{"name":"Bash","parametersJsonSchema":SCHEMA}]}],"contents":[{"role":"user","parts":[{"text":"go"}]}]}`,
		`{"tools":[{"functionDeclarations":[{"name":"Bash","parametersJsonSchema":SCHEMA}]}],"contents":[{"role":"user","parts":[{"text":"go"}]},
		 {"role":"model","parts":[{"functionCall":{"name":"Bash","args":{"command":"echo hi"}}}]},
		 {"role":"user","parts":[{"functionResponse":{"name":"Bash","response":{"output":"RESULT-TEXT"}}}]}]}`},
}

// TestTurn plays one turn in every dialect over HTTP: the first request
// gets a call of the shell tool with the command (in the streamed
// answer), the one after the tool ran gets the final text, and the
// server saw the tool's result.
func TestTurn(t *testing.T) {
	schema, _ := json.Marshal(shellTool)
	var results []string
	s := &Server{Brain: Shell{Command: "echo e2e-CMD", Done: "e2e-DONE", Pick: func(t Tool) bool { return t.Name == "Bash" }}.Brain(),
		OnResult: func(n int) { results = append(results, "seen") }}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	post := func(path, body string) string {
		resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(strings.ReplaceAll(body, "SCHEMA", string(schema))))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	for _, r := range requests {
		first := post(r.path, r.first)
		if !strings.Contains(first, `echo e2e-CMD`) || !strings.Contains(first, "Bash") {
			t.Errorf("%s: the first answer calls no Bash with the command:\n%s", r.path, first)
		}
		if !strings.Contains(first, "data: ") {
			t.Errorf("%s: the answer is not server-sent events:\n%s", r.path, first)
		}
		if second := post(r.path, r.second); !strings.Contains(second, "e2e-DONE") {
			t.Errorf("%s: the answer after the tool ran is not the final text:\n%s", r.path, second)
		}
		conv, ok := Parse(r.path, []byte(strings.ReplaceAll(r.second, "SCHEMA", string(schema))))
		if !ok || len(conv.Results) != 1 || !strings.Contains(conv.Results[0], "RESULT-TEXT") || len(conv.Calls) != 1 {
			t.Errorf("%s: parsed %+v", r.path, conv)
		}
	}
	if len(results) != 1 {
		t.Errorf("OnResult ran %d times, want once (the first request carrying a result)", len(results))
	}
	if side := post("/v1/messages", `{"stream":false,"messages":[{"role":"user","content":"title?"}]}`); !strings.Contains(side, `"text"`) {
		t.Errorf("a request without tools gets no text: %s", side)
	}
}

// TestSSEFraming checks the Anthropic stream event by event: a client
// parses it line by line.
func TestSSEFraming(t *testing.T) {
	var b bytes.Buffer
	rec := &recorder{header: http.Header{}, body: &b}
	writeAnthropic(rec, Reply{Call: &Call{Name: "Bash", Args: map[string]any{"command": "x"}}}, true, "m")
	var events []string
	sc := bufio.NewScanner(&b)
	for sc.Scan() {
		if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events = append(events, ev)
		}
	}
	want := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
}

type recorder struct {
	header http.Header
	body   *bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(int)             {}

func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   string
	}{
		{`{"properties":{"command":{"type":"string"}},"required":["command"]}`, `{"command":"ls"}`},
		{`{"properties":{"cmd":{"type":"string"},"yield_time_ms":{"type":"number"}},"required":["cmd"]}`, `{"cmd":"ls"}`},
		{`{"properties":{"commands":{"type":"array"}},"required":["commands"]}`, `{"commands":["ls"]}`},
		{`{"properties":{"command":{"type":"array"},"workdir":{"type":"string"}},"required":["command","workdir"]}`, `{"command":["bash","-lc","ls"],"workdir":"e2e"}`},
		{`{"properties":{"command":{"type":"string"},"run_in_background":{"type":"boolean"}}}`, `{"command":"ls","run_in_background":true}`},
	} {
		var schema map[string]any
		json.Unmarshal([]byte(tc.schema), &schema)
		got, _ := json.Marshal(Args(schema, "ls", "run_in_background"))
		if string(got) != tc.want {
			t.Errorf("Args(%s) = %s, want %s", tc.schema, got, tc.want)
		}
	}
}

func TestSuggested(t *testing.T) {
	for _, tc := range []struct {
		result string
		want   []Step
	}{
		{"shguard: this command would hang the tool: x. Run this instead, which does the same work without holding the tool's output:\n./srv >/tmp/j.log 2>&1 & curl x\n(background output goes to /tmp/j.log; read it with tail or cat)", []Step{{"./srv >/tmp/j.log 2>&1 & curl x", ""}}},
		{"shguard: x. It was not run. Run it again as its own call with run_in_background: true:\nnpm run dev", []Step{{"npm run dev", "run_in_background"}}},
		{"shguard: x. It was not run. Run instead, each as its own call:\n- `python3 -m http.server 8766` with is_background: true\n- then: sleep 1; curl -s http://127.0.0.1:8766/\n", []Step{{"python3 -m http.server 8766", "is_background"}, {"sleep 1; curl -s http://127.0.0.1:8766/", ""}}},
		{"Run instead, each as its own call:\n- /usr/bin/setsid bash -c 'srv' >/tmp/j.log 2>&1 </dev/null & echo $! >/tmp/j.pid\n- then: curl x\n\n(agent note)", []Step{{"/usr/bin/setsid bash -c 'srv' >/tmp/j.log 2>&1 </dev/null & echo $! >/tmp/j.pid", ""}, {"curl x", ""}}},
		{"e2e-clean-42", nil},
	} {
		if got := Suggested(tc.result); !slices.Equal(got, tc.want) {
			t.Errorf("Suggested(%q) = %q; want %q", tc.result, got, tc.want)
		}
	}
}
