package e2e

import (
	"github.com/shguard/shguard/e2e/fakemodel"
	"os"
	"path/filepath"
	"time"
)

// Spec is one run, handed from the test to the runner in its namespace.
type Spec struct {
	Agent string `json:"agent"`
	Case  string `json:"case"`
	Mode  string `json:"mode"` // hook, mcp
	Dir   string `json:"dir"`  // the run's directory (fresh)
	// Bins holds shguard (the real one), shexec and shexec-mcp.
	Bins string `json:"bins"`
	// Timeout is the hard limit of the agent's run.
	Timeout time.Duration `json:"timeout"`
}

// prompt is the user's prompt of every run. It does not hold the command
// (the fake model asks for it), so that the agent's own command line,
// which holds the prompt, is never taken for the command running.
const prompt = "Run the shell command you are given with your shell tool, then say what it printed."

// Run is what an adapter's Setup gets: the run's fresh directories, the
// model endpoint, and what to install.
type Run struct {
	Spec
	Home, Project, Tmp string
	// ModelURL is the fake model's base URL (http://127.0.0.1:PORT).
	ModelURL string
	// Prompt is the user's prompt for the turn.
	Prompt string
	// HookConfig is `shguard hook --print-config` for the agent's
	// protocol, exactly; "" in mode mcp or without a protocol.
	HookConfig string
	// Shexec is the shexec executable (mode mcp: `shexec mcp`).
	Shexec string
	// Bin is the agent's executable.
	Bin string
	// Env is the environment every run starts from (HOME, TMPDIR, PATH…).
	Env []string
}

// Write creates a file under the run (dirs included).
func (r *Run) Write(path, content string, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), mode)
}

// HookCall is one run of the hook, as the shguard wrapper recorded it.
type HookCall struct {
	Args   string `json:"args"`
	Input  string `json:"input"`
	Output string `json:"output"`
	Stderr string `json:"stderr"`
	Exit   string `json:"exit"`
	At     int64  `json:"at_ns"` // when it was called (unix ns)
}

// Result is what one run recorded.
type Result struct {
	Spec
	Version  string            `json:"version"`
	Prompt   string            `json:"prompt"`
	Command  string            `json:"command"` // the case's command as the model asked for it
	Wall     float64           `json:"wall_seconds"`
	Exit     int               `json:"exit"`
	TimedOut bool              `json:"timed_out"`
	Err      string            `json:"error,omitempty"` // the run could not be set up
	Hook     []HookCall        `json:"hook"`
	Model    []fakemodel.Entry `json:"model"`
	Calls    []fakemodel.Call  `json:"calls"`            // tool calls the model made
	Results  []string          `json:"results"`          // tool results the agent sent back
	Served   bool              `json:"served"`           // the case's port answered while the agent ran
	NoHook   bool              `json:"no_hook"`          // shguard has no protocol for the agent: it ran without the hook
	During   []Proc            `json:"during"`           // processes when the last tool result came back
	Left     []Proc            `json:"left"`             // processes left when the agent exited
	Doctor   string            `json:"doctor,omitempty"` // shguard hook --doctor, before the run
	Stdout   string            `json:"stdout"`
	Stderr   string            `json:"stderr"`
}

// Proc is one process seen in the run's namespace.
type Proc struct {
	Pid  int    `json:"pid"`
	PPid int    `json:"ppid"`
	Pgid int    `json:"pgid"`
	Cmd  string `json:"cmd"`
	// Managed says who manages a leftover: "shexec job", "recorded pid
	// in FILE", "agent's own", or "" (nobody).
	Managed string `json:"managed,omitempty"`
}
