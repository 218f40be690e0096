package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// These tests speak LSP to the built `shguard lsp` process through
// sourcegraph/jsonrpc2 on the client side, as an editor would: the
// process, its stdio framing and its exit status are under test, not
// only the package's functions.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// shguardBinary builds cmd/shguard once for the package's tests.
func shguardBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "shguard-lsp-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "shguard")
		args := []string{"build", "-o", binPath}
		if os.Getenv("SHGUARD_LSP_RACE") != "" {
			args = append(args, "-race") // the server's goroutines under the race detector
		}
		out, err := exec.Command("go", append(args, "../cmd/shguard")...).CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, out}
		}
	})
	if buildErr != nil {
		t.Fatalf("building shguard: %v", buildErr)
	}
	return binPath
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// client is an editor's side of one `shguard lsp` process.
type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	stderr bytes.Buffer

	mu    sync.Mutex
	diags map[string][]publication // by URI, in arrival order
	shown []string                 // window/showMessage texts
	cond  *sync.Cond
}

type publication struct {
	version int
	diags   []diagnostic
}

// diagnostic is protocol.Diagnostic with its code readable: glsp's
// IntegerOrString cannot be decoded into (its UnmarshalJSON has a value
// receiver).
type diagnostic struct {
	protocol.Diagnostic
	Code any `json:"code"`
}

// plain drops the code, to send diagnostics back in a code action request.
func plain(ds []diagnostic) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	for _, d := range ds {
		out = append(out, d.Diagnostic)
	}
	return out
}

type pipes struct {
	r interface{ Read([]byte) (int, error) }
	w interface {
		Write([]byte) (int, error)
		Close() error
	}
}

func (p pipes) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipes) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipes) Close() error                { return p.w.Close() }

// start runs `shguard lsp` and initializes it with the given
// initializationOptions (nil for none).
func start(t *testing.T, initOptions any) *client {
	t.Helper()
	c := &client{t: t, diags: map[string][]publication{}}
	c.cond = sync.NewCond(&c.mu)
	c.cmd = exec.Command(shguardBinary(t), "lsp")
	c.cmd.Stderr = &c.stderr
	c.cmd.Dir = t.TempDir()
	in, err := c.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.cmd.Process.Kill() // a no-op once it exited
		c.cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", c.stderr.String())
		}
	})
	stream := jsonrpc2.NewBufferedStream(pipes{out, in}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(c.handle), jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, map[string]any{
		"processId": nil, "rootUri": nil, "capabilities": map[string]any{},
		"initializationOptions": initOptions,
	}, &res)
	if res.ServerInfo == nil || res.ServerInfo.Name != "shguard" {
		t.Fatalf("initialize: serverInfo %+v", res.ServerInfo)
	}
	c.notify(protocol.MethodInitialized, map[string]any{})
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case protocol.ServerTextDocumentPublishDiagnostics:
		var p struct {
			URI         string       `json:"uri"`
			Version     int          `json:"version"`
			Diagnostics []diagnostic `json:"diagnostics"`
		}
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
		}
		c.diags[p.URI] = append(c.diags[p.URI], publication{p.Version, p.Diagnostics})
	case protocol.ServerWindowShowMessage:
		var p protocol.ShowMessageParams
		json.Unmarshal(*req.Params, &p)
		c.shown = append(c.shown, p.Message)
	}
	c.cond.Broadcast()
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitDiags waits for diagnostics of uri at version and returns them.
func (c *client) waitDiags(uri string, version int) []diagnostic {
	c.t.Helper()
	return c.waitDiagsWithin(uri, version, 30*time.Second)
}

func (c *client) waitDiagsWithin(uri string, version int, d time.Duration) []diagnostic {
	c.t.Helper()
	deadline := time.Now().Add(d)
	timer := time.AfterFunc(d, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		ps := c.diags[uri]
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i].version == version {
				return ps[i].diags
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no diagnostics for %s version %d (got %+v)", uri, version, ps)
		}
		c.cond.Wait()
	}
}

func (c *client) open(uri, langID string, version int, text string) {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: langID, Version: protocol.Integer(version), Text: text,
	}})
}

// codeActions asks for the code actions over rng with the diagnostics ds.
func (c *client) codeActions(uri string, rng protocol.Range, ds []diagnostic) []protocol.CodeAction {
	c.t.Helper()
	var as []protocol.CodeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range:        rng,
		Context:      protocol.CodeActionContext{Diagnostics: plain(ds)},
	}, &as)
	return as
}

// exit shuts the server down and checks that it exits 0.
func (c *client) exit() {
	c.t.Helper()
	c.call(protocol.MethodShutdown, nil, nil)
	c.notify(protocol.MethodExit, nil)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			c.t.Errorf("shguard lsp exited: %v", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Errorf("shguard lsp did not exit after exit")
	}
}

// codes lists the diagnostics' rule codes.
func codes(ds []diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		if s, ok := d.Code.(string); ok {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// applyEdits applies LSP text edits (UTF-16 positions) to text, as an
// editor does.
func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	off := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		o := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			o += len(lines[i])
		}
		line := ""
		if int(p.Line) < len(lines) {
			line = strings.TrimRight(lines[p.Line], "\n")
		}
		units := 0
		for i, r := range line {
			if units >= int(p.Character) {
				return o + i
			}
			units++
			if r >= 0x10000 {
				units++
			}
		}
		return o + len(line)
	}
	sorted := append([]protocol.TextEdit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return off(sorted[i].Range.Start) > off(sorted[j].Range.Start) })
	for _, e := range sorted {
		s, en := off(e.Range.Start), off(e.Range.End)
		text = text[:s] + e.NewText + text[en:]
	}
	return text
}

// fixed is what `shguard --fix FILE` prints for a script file holding
// text, the CLI's answer the server's fix-all must equal.
func fixed(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(shguardBinary(t), "--fix", path).Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out)
}

// cli runs the built shguard with args and stdin.
func cli(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(shguardBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out)
}
