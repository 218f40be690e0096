package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Agent is one agent program: how to install it, configure it and run it
// for one turn. Each agent_NAME.go file registers one.
type Agent struct {
	Name    string // the row's name
	Package string // npm package
	Version string // pinned
	Bin     string // executable under node_modules/.bin
	// Protocol is the agent's name for `shguard hook --print-config`
	// ("" when shguard has no protocol for it: it runs without the hook).
	Protocol string
	// ShellTools are the names of the tool the agent offers for running
	// a command; the fake model calls the first one offered.
	ShellTools []string
	// ContextChannel: the hook can pass advice to the model (so advice
	// the hook gives must reach it).
	ContextChannel bool
	// Shell is the shell the agent runs commands with when the user's
	// $SHELL is zsh: "zsh" if it honours $SHELL, else "bash".
	Shell string
	// Daemons are command-line fragments of the agent's own processes
	// that may outlive it (not work the command started).
	Daemons []string
	// MCP: Setup can configure `shexec mcp` as an MCP server (mode mcp).
	MCP bool
	// MCPWait names the tool the agent offers while its MCP servers are
	// still connecting, which the model calls to wait for them.
	MCPWait string
	// Setup writes the agent's configuration into the run (the hook or
	// the MCP server, the model endpoint) and returns the command line
	// and the extra environment of the non-interactive run.
	Setup func(r *Run) (argv, env []string, err error)
}

var (
	agents   = map[string]*Agent{}
	agentsMu sync.Mutex
)

func register(a *Agent) {
	agentsMu.Lock()
	defer agentsMu.Unlock()
	agents[a.Name] = a
}

// Agents lists the registered agents by name.
func Agents() []*Agent {
	var as []*Agent
	for _, a := range agents {
		as = append(as, a)
	}
	sort.Slice(as, func(i, j int) bool { return as[i].Name < as[j].Name })
	return as
}

func lookupAgent(name string) *Agent { return agents[name] }

// cacheDir is where agents are installed.
func cacheDir() string {
	if d := os.Getenv("SHGUARD_E2E_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "shguard-e2e")
}

// dir is the agent's own npm prefix in the cache.
func (a *Agent) dir() string {
	return filepath.Join(cacheDir(), strings.NewReplacer("/", "_", "@", "_").Replace(a.Package)+"@"+a.Version)
}

// BinPath is the installed executable.
func (a *Agent) BinPath() string { return filepath.Join(a.dir(), "node_modules", ".bin", a.Bin) }

// Install installs the pinned version with npm unless it is there; the
// error says why the agent cannot run here.
func (a *Agent) Install() error {
	if _, err := os.Stat(a.BinPath()); err == nil {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is not installed")
	}
	if err := os.MkdirAll(a.dir(), 0o755); err != nil {
		return err
	}
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", a.dir(), a.Package+"@"+a.Version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		os.RemoveAll(a.dir()) // a half install must not look installed
		return fmt.Errorf("npm install %s@%s: %v\n%s", a.Package, a.Version, err, lastLines(string(out), 8))
	}
	if _, err := os.Stat(a.BinPath()); err != nil {
		return fmt.Errorf("npm install %s@%s gave no %s", a.Package, a.Version, a.Bin)
	}
	return nil
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// pickTool accepts the agent's shell tool (mode hook) or shexec's run
// tool (mode mcp: Claude Code names it mcp__shexec__run, Gemini CLI run
// or shexec__run).
func (a *Agent) pickTool(mode string) func(name string) bool {
	if mode == "mcp" {
		return func(n string) bool {
			return n == "run" || strings.HasSuffix(n, "shexec__run") || strings.HasSuffix(n, "shexec_run")
		}
	}
	return func(n string) bool {
		for _, t := range a.ShellTools {
			if n == t {
				return true
			}
		}
		return false
	}
}

// setupError is a setup command that failed, with its output.
type setupError struct {
	what string
	err  error
	out  []byte
}

func (e *setupError) Error() string {
	return e.what + ": " + e.err.Error() + "\n" + lastLines(string(e.out), 8)
}
