//go:build linux || darwin || freebsd

package mcpserver

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shguard/shguard/exec"
)

// RunInput is the `run` tool's input.
type RunInput struct {
	Command     string            `json:"command" jsonschema:"the shell command to run"`
	Cwd         string            `json:"cwd,omitempty" jsonschema:"working directory (default: the server's)"`
	Timeout     *float64          `json:"timeout,omitempty" jsonschema:"seconds before the whole process tree is stopped; 0 for no limit (default: the server's)"`
	Yield       *float64          `json:"yield,omitempty" jsonschema:"seconds to wait before returning while the command goes on as a job (default 10)"`
	Shell       string            `json:"shell,omitempty" jsonschema:"shell to run the command with (default bash)"`
	Env         map[string]string `json:"env,omitempty" jsonschema:"extra environment variables"`
	Stdin       string            `json:"stdin,omitempty" jsonschema:"text given on stdin, followed by EOF (unless interactive)"`
	Interactive bool              `json:"interactive,omitempty" jsonschema:"keep stdin open so that the write tool can answer prompts"`
}

// RunOutput is the `run` tool's structured result.
type RunOutput struct {
	Status     string          `json:"status" jsonschema:"exited, timeout, running, killed or error"`
	ExitCode   int             `json:"exit_code"`
	Output     string          `json:"output" jsonschema:"stdout and stderr, head and tail kept when long"`
	Truncated  bool            `json:"truncated"`
	DurationMS int64           `json:"duration_ms"`
	JobID      string          `json:"job_id,omitempty" jsonschema:"the job the command goes on as, when still running"`
	Jobs       []string        `json:"jobs"`
	Leftovers  []exec.Leftover `json:"leftovers" jsonschema:"processes that outlived the shell, kept in job_id (action kept)"`
	Findings   []Finding       `json:"findings"`
	Rewritten  string          `json:"rewritten,omitempty" jsonschema:"the command really run, when it differs from command (the server runs commands as written and keeps their background work in the job, so it does not today)"`
	Message    string          `json:"message,omitempty"`
}

func seconds(p *float64, def time.Duration) time.Duration {
	if p == nil {
		return def
	}
	if *p <= 0 {
		return 0
	}
	return time.Duration(*p * float64(time.Second))
}

// run runs the command in the server's own process (exec.Spawner) until it
// ends or the yield passes; a command still running then, or whose shell
// has exited leaving work running, goes on as a job of this server's
// session. A command that does not parse is run anyway: the shell reports
// the error as it would for the agent.
func (s *Server) run(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	start := time.Now()
	out := RunOutput{Jobs: []string{}, Leftovers: []exec.Leftover{}}
	if strings.TrimSpace(in.Command) == "" {
		return errResult("run: `command` is required: the shell command to run"), out, nil
	}
	shell := in.Shell
	if shell == "" {
		shell = s.shell
	}
	out.Findings, _ = analyzeCommand(in.Command, shell)
	yield := seconds(in.Yield, DefaultYield)
	if yield <= 0 {
		yield = DefaultYield
	}

	env := append(os.Environ(), exec.NonInteractiveEnv...) // later entries win
	keys := make([]string, 0, len(in.Env))
	for k := range in.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+in.Env[k])
	}
	stdin := exec.JobStdinNull
	if in.Interactive {
		stdin = exec.JobStdinPipe
	}
	capture := exec.NewCapture(s.maxOutput)
	p, err := s.spawner.Start(exec.SpawnSpec{
		JobSpec: exec.JobSpec{
			Command: in.Command, Shell: shell, Dir: in.Cwd, Env: env, Session: s.session,
			Timeout: seconds(in.Timeout, s.timeout), Stdin: stdin,
		},
		Input:  []byte(in.Stdin),
		Output: capture,
	})
	if err != nil {
		out.Status, out.ExitCode, out.Message = "error", 125, err.Error()
		return errResult("run: " + err.Error()), out, nil
	}
	stopProgress := s.progress(ctx, req, start)
	res, err := p.Wait(ctx, yield)
	stopProgress()
	out.Output, out.Truncated = capture.String(), capture.Truncated()
	out.DurationMS = time.Since(start).Milliseconds()
	if err != nil {
		out.Status, out.ExitCode, out.Message = "error", 125, err.Error()
		return textResult(out), out, nil
	}
	if ctx.Err() != nil && res.Status != exec.JobRunning {
		// The client cancelled the call: the command was in its
		// foreground, and has been stopped.
		out.Status, out.ExitCode, out.Message = "killed", 130, "cancelled by the client; the command was stopped"
		return textResult(out), out, nil
	}
	if res.Status != exec.JobRunning {
		out.Status, out.ExitCode, out.Message = runStatus(res.Status), res.ExitCode, res.Note
		return textResult(out), out, nil
	}
	id := res.Job.ID
	out.Status, out.JobID, out.Jobs = "running", id, []string{id}
	out.Message = fmt.Sprintf("still running after %v; continues as job %s (tools: logs, wait, write, kill)", yield, id)
	if res.ShellExited {
		out.Message = fmt.Sprintf("the shell has exited, but work it started in the background still runs; it continues as job %s (tools: logs, wait, write, kill)", id)
		if len(res.Leftovers) > 0 {
			out.Leftovers = res.Leftovers // what outlived the shell, kept in the job
		}
	}
	return textResult(out), out, nil
}

func runStatus(st exec.JobState) string {
	switch st {
	case exec.JobExited:
		return "exited"
	case exec.JobKilled:
		return "killed"
	case exec.JobTimedOut:
		return "timeout"
	case exec.JobRunning:
		return "running"
	}
	return "error"
}

// progress sends a progress notification every second while a run is
// followed, when the client asked for them with a progress token.
func (s *Server) progress(ctx context.Context, req *mcp.CallToolRequest, start time.Time) (stop func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				el := time.Since(start).Seconds()
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: el, Message: fmt.Sprintf("running for %.0fs", el),
				})
			}
		}
	}()
	return func() { close(done) }
}

// textResult is what the model reads first: the output, then one line of
// status.
func textResult(o RunOutput) *mcp.CallToolResult {
	var b strings.Builder
	b.WriteString(o.Output)
	if o.Output != "" && !strings.HasSuffix(o.Output, "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "[%s", o.Status)
	if o.Status != "running" {
		fmt.Fprintf(&b, ", exit code %d", o.ExitCode)
	}
	fmt.Fprintf(&b, ", %d ms", o.DurationMS)
	if o.JobID != "" {
		fmt.Fprintf(&b, ", job %s", o.JobID)
	}
	b.WriteString("]")
	if o.Message != "" {
		b.WriteString(" " + o.Message)
	}
	for _, f := range o.Findings {
		fmt.Fprintf(&b, "\n%d:%d: %s: %s [%s]", f.Line, f.Column, f.Severity, f.Message, f.Rule)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
}

func errResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
