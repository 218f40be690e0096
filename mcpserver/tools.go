//go:build linux || darwin || freebsd

package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/shguard/shguard/exec"
)

func (s *Server) addTools(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "run", Description: "Run a shell command. It never hangs: after `yield` seconds (default 10) a command still running goes on as a job whose id is returned (see logs, wait, write, kill); `timeout` (seconds from the start, the server's default unless given) stops the whole process tree, also after the yield: pass timeout 0 for a server or a watcher meant to keep running. Background work (`server &`) is tracked and stopped when the session ends. Output is stdout and stderr together, head and tail kept when long. `findings` is shguard's analysis of the command."}, s.run)
	mcp.AddTool(srv, &mcp.Tool{Name: "check", Description: "Analyse a shell command without running it: hangs and leaked processes it would cause, and the fixed command when a safe fix exists."}, s.check)
	mcp.AddTool(srv, &mcp.Tool{Name: "jobs", Description: "List the jobs started in this session."}, s.jobs)
	mcp.AddTool(srv, &mcp.Tool{Name: "logs", Description: "Read a job's output by lines: `offset` is the first line (default: the last 200 lines), `limit` how many, `stream` stdout (default) or stderr."}, s.logs)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait", Description: "Wait for a job to end, at most `timeout` seconds (default 30)."}, s.wait)
	mcp.AddTool(srv, &mcp.Tool{Name: "write", Description: "Write `data` to the stdin of a job started with interactive=true; `eof` closes it."}, s.write)
	mcp.AddTool(srv, &mcp.Tool{Name: "kill", Description: "Stop a job and every process it started: SIGTERM, `grace` seconds (default 2), SIGKILL."}, s.kill)
}

// CheckInput is the `check` tool's input.
type CheckInput struct {
	Command string `json:"command" jsonschema:"the shell command to analyse"`
	Shell   string `json:"shell,omitempty" jsonschema:"the shell that would run it (default bash)"`
}

// CheckOutput is the `check` tool's result.
type CheckOutput struct {
	Findings []Finding `json:"findings"`
	Fixed    string    `json:"fixed"`
	Changed  bool      `json:"changed"`
}

func (s *Server) check(_ context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	if strings.TrimSpace(in.Command) == "" {
		return errResult("check: `command` is required"), CheckOutput{Findings: []Finding{}}, nil
	}
	shell := in.Shell
	if shell == "" {
		shell = s.shell
	}
	fs, fixed := analyzeCommand(in.Command, shell)
	out := CheckOutput{Findings: fs, Fixed: fixed, Changed: fixed != in.Command}
	var b strings.Builder
	if len(fs) == 0 {
		b.WriteString("no findings")
	}
	for i, f := range fs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%d:%d: %s: %s [%s]", f.Line, f.Column, f.Severity, f.Message, f.Rule)
	}
	if out.Changed {
		b.WriteString("\nfixed: " + fixed)
	}
	return text(b.String()), out, nil
}

// JobInfo is one job in the `jobs` listing.
type JobInfo struct {
	ID       string    `json:"id"`
	Command  string    `json:"command"`
	Status   string    `json:"status"`
	ExitCode *int      `json:"exit_code"`
	Started  time.Time `json:"started"`
	Cwd      string    `json:"cwd"`
}

// JobsOutput is the `jobs` tool's result.
type JobsOutput struct {
	Jobs []JobInfo `json:"jobs"`
}

func (s *Server) jobs(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, JobsOutput, error) {
	out := JobsOutput{Jobs: []JobInfo{}}
	js, err := s.store.List(s.session)
	if err != nil {
		return errResult("jobs: " + err.Error()), out, nil
	}
	var b strings.Builder
	for _, j := range js {
		out.Jobs = append(out.Jobs, JobInfo{ID: j.ID, Command: j.Command, Status: string(j.Status), ExitCode: j.ExitCode, Started: j.Started, Cwd: j.Cwd})
		fmt.Fprintf(&b, "%s\t%s\t%s\n", j.ID, j.Status, short(j.Command))
	}
	if len(js) == 0 {
		b.WriteString("no jobs")
	}
	return text(b.String()), out, nil
}

// LogsInput is the `logs` tool's input.
type LogsInput struct {
	ID     string `json:"id" jsonschema:"job id"`
	Offset *int   `json:"offset,omitempty" jsonschema:"first line to read, from 0 (default: the last lines)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"number of lines (default 200)"`
	Stream string `json:"stream,omitempty" jsonschema:"stdout (default) or stderr"`
}

// LogsOutput is the `logs` tool's result.
type LogsOutput struct {
	Output     string `json:"output"`
	NextOffset int    `json:"next_offset"`
	Total      int    `json:"total"`
	Status     string `json:"status"`
}

func (s *Server) logs(_ context.Context, _ *mcp.CallToolRequest, in LogsInput) (*mcp.CallToolResult, LogsOutput, error) {
	var out LogsOutput
	if in.Stream != "" && in.Stream != "stdout" && in.Stream != "stderr" {
		return errResult("logs: `stream` is stdout or stderr"), out, nil
	}
	j, err := s.job(in.ID)
	if err != nil {
		return errResult("logs: " + err.Error()), out, nil
	}
	offset := -1 // the last lines
	if in.Offset != nil {
		offset = *in.Offset
	}
	limit := in.Limit
	if limit <= 0 {
		limit = exec.DefaultLogLines
	}
	p, err := s.store.ReadLogs(j.ID, in.Stream == "stderr", offset, limit)
	if err != nil {
		return errResult("logs: " + err.Error()), out, nil
	}
	out.Output = strings.Join(p.Lines, "\n")
	if len(p.Lines) > 0 {
		out.Output += "\n"
	}
	out.NextOffset, out.Total, out.Status = p.Offset+len(p.Lines), p.Total, string(j.Status)
	return text(out.Output + fmt.Sprintf("[job %s %s, lines %d-%d of %d]", j.ID, j.Status, p.Offset, out.NextOffset, p.Total)), out, nil
}

// WaitInput is the `wait` tool's input.
type WaitInput struct {
	ID      string   `json:"id" jsonschema:"job id"`
	Timeout *float64 `json:"timeout,omitempty" jsonschema:"seconds to wait at most (default 30)"`
}

// WaitOutput is the `wait` tool's result.
type WaitOutput struct {
	Status   string `json:"status"`
	ExitCode *int   `json:"exit_code"`
}

func (s *Server) wait(ctx context.Context, _ *mcp.CallToolRequest, in WaitInput) (*mcp.CallToolResult, WaitOutput, error) {
	var out WaitOutput
	if _, err := s.job(in.ID); err != nil {
		return errResult("wait: " + err.Error()), out, nil
	}
	d := seconds(in.Timeout, 30*time.Second)
	wctx := ctx
	if d > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	j, err := s.store.Wait(wctx, in.ID)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return errResult("wait: " + err.Error()), out, nil
	}
	if j == nil {
		if j, err = s.store.Load(in.ID); err != nil {
			return errResult("wait: " + err.Error()), out, nil
		}
	}
	out.Status = string(j.Status)
	if j.Finished() {
		c := j.WaitCode()
		out.ExitCode = &c
		return text(fmt.Sprintf("job %s %s, exit code %d", j.ID, j.Status, c)), out, nil
	}
	return text(fmt.Sprintf("job %s still running after %v", j.ID, d)), out, nil
}

// WriteInput is the `write` tool's input.
type WriteInput struct {
	ID   string `json:"id" jsonschema:"job id"`
	Data string `json:"data,omitempty" jsonschema:"text to write (add \\n to end a line)"`
	EOF  bool   `json:"eof,omitempty" jsonschema:"close the job's stdin after the data"`
}

// WriteOutput is the `write` tool's result.
type WriteOutput struct {
	Written int `json:"written"`
}

func (s *Server) write(_ context.Context, _ *mcp.CallToolRequest, in WriteInput) (*mcp.CallToolResult, WriteOutput, error) {
	var out WriteOutput
	if _, err := s.job(in.ID); err != nil {
		return errResult("write: " + err.Error()), out, nil
	}
	if err := s.store.Write(in.ID, []byte(in.Data), in.EOF); err != nil {
		return errResult("write: " + err.Error()), out, nil
	}
	out.Written = len(in.Data)
	return text(fmt.Sprintf("wrote %d bytes to job %s", out.Written, in.ID)), out, nil
}

// KillInput is the `kill` tool's input.
type KillInput struct {
	ID    string   `json:"id" jsonschema:"job id"`
	Grace *float64 `json:"grace,omitempty" jsonschema:"seconds between SIGTERM and SIGKILL (default 2)"`
}

// KillOutput is the `kill` tool's result.
type KillOutput struct {
	Status  string `json:"status"`
	Stopped bool   `json:"stopped"`
}

func (s *Server) kill(ctx context.Context, _ *mcp.CallToolRequest, in KillInput) (*mcp.CallToolResult, KillOutput, error) {
	var out KillOutput
	before, err := s.job(in.ID)
	if err != nil {
		return errResult("kill: " + err.Error()), out, nil
	}
	j, err := s.store.Kill(ctx, in.ID, seconds(in.Grace, exec.DefaultJobGrace))
	if err != nil {
		return errResult("kill: " + err.Error()), out, nil
	}
	out.Status, out.Stopped = string(j.Status), !before.Finished()
	return text(fmt.Sprintf("job %s %s", j.ID, j.Status)), out, nil
}

// job loads a job of this session: the model may not touch other jobs in
// the store (another agent's, the user's).
func (s *Server) job(id string) (*exec.Job, error) {
	if id == "" {
		return nil, errors.New("`id` is required (a job id from run or jobs)")
	}
	j, err := s.store.Load(id)
	if err != nil || j.Session != s.session {
		return nil, fmt.Errorf("no job %q in this session", id)
	}
	return j, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func short(s string) string {
	s = strings.ReplaceAll(s, "\n", "; ")
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
