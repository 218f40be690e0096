//go:build linux || darwin || freebsd

// Package mcpserver is `shexec mcp`: a Model Context Protocol server whose
// shell tool cannot hang the agent. A command runs in the server's own
// process (exec.Spawner: the server starts the shell, reads its output and
// reaps it) until it ends or the yield time passes; a command still running
// then is handed over to a managed job of the exec package (a supervisor
// adopts its processes and its output pipes), and the model gets the job id
// and the tools `logs`, `wait`, `write` and `kill` to go on with it.
//
// The package is not called mcp because the SDK's package is: code that
// uses both would have to rename one of them in every file.
package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shguard/shguard/exec"
)

// Defaults of a careful agent tool.
const (
	DefaultTimeout   = 10 * time.Minute
	DefaultYield     = 10 * time.Second
	DefaultMaxOutput = 64 << 10
)

// Server is one MCP server: its tools, and the jobs it started.
type Server struct {
	store     *exec.Store
	session   string
	timeout   time.Duration
	maxOutput int
	keepJobs  bool
	shell     string
	version   string

	spawner   *exec.Spawner
	closeOnce sync.Once
}

// Option configures a Server.
type Option func(*Server)

// WithStore sets the job store (default: exec.OpenStore("")).
func WithStore(st *exec.Store) Option { return func(s *Server) { s.store = st } }

// WithTimeout is the default timeout of a run that names none; 0 is no limit.
func WithTimeout(d time.Duration) Option { return func(s *Server) { s.timeout = d } }

// WithMaxOutput is the number of output bytes a run keeps in memory (head
// and tail); the job logs on disk keep the rest.
func WithMaxOutput(n int) Option { return func(s *Server) { s.maxOutput = max(n, 2) } }

// WithKeepJobs leaves the server's jobs running when its session ends.
func WithKeepJobs(keep bool) Option { return func(s *Server) { s.keepJobs = keep } }

// WithShell is the shell of a run that names none (default bash).
func WithShell(sh string) Option { return func(s *Server) { s.shell = sh } }

// WithVersion is the version announced at initialization.
func WithVersion(v string) Option { return func(s *Server) { s.version = v } }

// New makes a server. Its job session is unique to it, so `jobs` lists
// only what this server started, and the clean-up at the end touches
// nothing else.
func New(opts ...Option) (*Server, error) {
	s := &Server{timeout: DefaultTimeout, maxOutput: DefaultMaxOutput, shell: "bash", version: "dev"}
	for _, o := range opts {
		o(s)
	}
	if s.store == nil {
		st, err := exec.OpenStore("")
		if err != nil {
			return nil, err
		}
		s.store = st
	}
	var b [6]byte
	rand.Read(b[:])
	s.session = fmt.Sprintf("mcp-%d-%s", os.Getpid(), hex.EncodeToString(b[:]))
	sp, err := exec.NewSpawner(s.store)
	if err != nil {
		return nil, err
	}
	s.spawner = sp
	return s, nil
}

// Session is the job session of this server's jobs.
func (s *Server) Session() string { return s.session }

// MCP builds the SDK server with the seven tools.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shexec", Version: s.version}, &mcp.ServerOptions{
		Instructions: "Shell commands through shexec: a run never hangs. A command still running after `yield` seconds goes on as a job: read it with `logs`, wait with `wait`, answer prompts with `write`, stop it with `kill`. Use `check` to lint a command without running it.",
	})
	s.addTools(srv)
	return srv
}

// Serve serves one session over t until the client goes away (stdin
// closes), then stops every job the server started unless WithKeepJobs.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	err := s.MCP().Run(ctx, t)
	s.Close()
	return err
}

// Close ends the server's session: it stops the commands still in a call's
// foreground and, unless WithKeepJobs, the jobs the server started (the
// supervisor of each stops its whole tree, escapees included) and what
// those commands orphaned that no job holds.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.spawner.StopActive()
		if !s.keepJobs {
			var wg sync.WaitGroup
			for _, id := range s.spawner.Jobs() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s.store.Kill(context.Background(), id, time.Second)
				}()
			}
			wg.Wait()
			s.spawner.StopOrphans()
		}
		s.spawner.Close()
	})
}
