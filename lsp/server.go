// Package lsp is shguard's language server: diagnostics for shell scripts
// as they are typed, code actions that apply shguard's fixes or add a
// disable directive, and the rule's explanation on hover. `shguard lsp`
// serves it over stdio.
//
// The protocol's types come from github.com/tliron/glsp/protocol_3_16 and
// the JSON-RPC transport (the Content-Length framing over stdio) from
// github.com/sourcegraph/jsonrpc2. glsp's own server package is not used:
// it links net/http and a websocket library, and `shguard` is also the
// pre-exec hook that starts before every command an agent runs, which
// must not pay their package initialisation (cmd/shguard's
// TestStartupDeps). The dispatch below is a switch over the four
// requests and seven notifications served.
//
// Order and blocking: messages are read one at a time, and notifications
// (didOpen, didChange…) are handled in that order, each in microseconds.
// Analyses run on other goroutines; a request (hover, code action) takes
// the document's snapshot when it is read, so its answer is about the
// text the editor had when it asked, and is computed off the reading
// goroutine.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shguard/shguard/internal/version"
	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Server is one client's language server.
type Server struct {
	conn     atomic.Pointer[jsonrpc2.Conn] // set by the first message: NewConn reads before it returns
	log      io.Writer
	verbose  bool
	debounce time.Duration

	mu          sync.Mutex
	docs        map[string]*document
	cfg         config
	initialized bool
	shutdown    bool
	exited      chan struct{}
	rcs         rcCache
}

// Options tune a server.
type Options struct {
	// Log receives what the server has to say beyond the protocol
	// (clients show a server's stderr in their log).
	Log io.Writer
	// Verbose logs each analysis with its duration.
	Verbose bool
	// Debounce replaces the default delay after a change (Debounce).
	Debounce time.Duration
}

// Serve runs a server on in and out until the client sends exit or
// closes in. It returns nil after shutdown then exit, as the protocol asks
// a server to exit 0 only then.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Debounce == 0 {
		o.Debounce = Debounce
	}
	s := &Server{log: o.Log, verbose: o.Verbose, debounce: o.Debounce, docs: map[string]*document{}, exited: make(chan struct{})}
	stream := jsonrpc2.NewBufferedStream(stdio{in, out}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(ctx, stream, s, jsonrpc2.SetLogger(log.New(o.Log, "shguard lsp: ", 0)))
	s.conn.CompareAndSwap(nil, conn)
	select {
	case <-s.exited:
	case <-conn.DisconnectNotify():
	}
	conn.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
	if !s.shutdown {
		return fmt.Errorf("the client left without shutdown")
	}
	return nil
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func (s *Server) notify(method string, params any) {
	if err := s.conn.Load().Notify(context.Background(), method, params); err != nil && err != jsonrpc2.ErrClosed {
		fmt.Fprintf(s.log, "shguard lsp: %s: %v\n", method, err)
	}
}

func (s *Server) showError(msg string) {
	s.notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
}

// Handle is called for each message in the order they arrive.
func (s *Server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	s.conn.CompareAndSwap(nil, conn)
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	if req.Notif {
		if err := s.notification(req.Method, params); err != nil {
			fmt.Fprintf(s.log, "shguard lsp: %s: %v\n", req.Method, err)
		}
		return
	}
	answer, err := s.request(req.Method, params)
	if err != nil {
		s.reply(ctx, req.ID, nil, err)
		return
	}
	if answer == nil {
		s.reply(ctx, req.ID, nil, nil)
		return
	}
	go func() { // the analysis may take a while: not on the reading goroutine
		r, err := answer()
		s.reply(ctx, req.ID, r, err)
	}()
}

func (s *Server) reply(ctx context.Context, id jsonrpc2.ID, result any, err error) {
	var e error
	if err != nil {
		je, ok := err.(*jsonrpc2.Error)
		if !ok {
			je = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		e = s.conn.Load().ReplyWithError(ctx, id, je)
	} else {
		e = s.conn.Load().Reply(ctx, id, result)
	}
	if e != nil && e != jsonrpc2.ErrClosed {
		fmt.Fprintf(s.log, "shguard lsp: reply: %v\n", e)
	}
}

// codeServerNotInitialized is the protocol's error for a request before
// initialize.
const codeServerNotInitialized = -32002

// request handles a request. Quick ones are answered here (answer nil,
// result nil); others return answer, called on another goroutine.
func (s *Server) request(method string, params json.RawMessage) (answer func() (any, error), err error) {
	s.mu.Lock()
	ready := s.initialized && !s.shutdown
	s.mu.Unlock()
	switch {
	case method == protocol.MethodInitialize:
		r, err := s.initialize(params)
		return func() (any, error) { return r, err }, nil
	case method == protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case !ready:
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "initialize first"}
	case method == protocol.MethodTextDocumentHover:
		var p protocol.HoverParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badParams(err)
		}
		snap := s.snapshot(p.TextDocument.URI)
		if snap == nil {
			return nil, nil
		}
		return func() (any, error) {
			if h := hover(snap, p.Position); h != nil {
				return h, nil
			}
			return nil, nil
		}, nil
	case method == protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badParams(err)
		}
		snap := s.snapshot(p.TextDocument.URI)
		if snap == nil {
			return func() (any, error) { return []protocol.CodeAction{}, nil }, nil
		}
		return func() (any, error) {
			as := codeActions(snap, p.Range, p.Context.Only)
			if as == nil {
				as = []protocol.CodeAction{}
			}
			return as, nil
		}, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "shguard lsp does not serve " + method}
}

func badParams(err error) error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
}

// snapshot is the latest snapshot of an open shell document, or nil.
func (s *Server) snapshot(uri string) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[uri]; d != nil {
		return d.snap
	}
	return nil
}

func (s *Server) initialize(params json.RawMessage) (*protocol.InitializeResult, error) {
	var p struct {
		InitializationOptions json.RawMessage `json:"initializationOptions"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, badParams(err)
	}
	cfg, err := parseSettings(p.InitializationOptions)
	s.mu.Lock()
	s.initialized = true
	if err == nil {
		s.cfg = cfg
	}
	s.mu.Unlock()
	if err != nil {
		s.showError("shguard: " + err.Error())
	}
	change := protocol.TextDocumentSyncKindIncremental
	name, ver := "shguard", version.Short()
	yes := true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &change,
				Save:      protocol.SaveOptions{IncludeText: &yes},
			},
			HoverProvider: true,
			CodeActionProvider: protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, KindFixAll},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: name, Version: &ver},
	}, nil
}

// notification handles a notification, in arrival order.
func (s *Server) notification(method string, params json.RawMessage) error {
	switch method {
	case protocol.MethodExit:
		close(s.exited)
		return nil
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return err
		}
		s.open(p.TextDocument.URI, p.TextDocument.LanguageID, p.TextDocument.Version, []byte(p.TextDocument.Text))
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return err
		}
		return s.change(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges)
	case protocol.MethodTextDocumentDidSave:
		var p protocol.DidSaveTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return err
		}
		s.save(p.TextDocument.URI, p.Text)
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return err
		}
		s.close(p.TextDocument.URI)
	case protocol.MethodWorkspaceDidChangeConfiguration:
		var p struct {
			Settings json.RawMessage `json:"settings"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return err
		}
		cfg, err := parseSettings(p.Settings)
		if err != nil {
			s.showError("shguard: " + err.Error() + " (the previous settings stay)")
			return nil
		}
		s.mu.Lock()
		s.cfg = cfg
		s.mu.Unlock()
		s.reconfigure()
	case protocol.MethodWorkspaceDidChangeWatchedFiles:
		s.reconfigure() // a .shguardrc may have changed
	}
	return nil // others ($/cancelRequest, initialized, $/setTrace…) need nothing
}
