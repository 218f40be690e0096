//go:build linux

package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shguard/shguard/exec"
)

// shexecBinary builds cmd/shexec and, next to it, cmd/shexec-mcp, which
// `shexec mcp` becomes (with -tags portable when the tests have it), once
// per test run: the tests that drive them share the two binaries, which
// they only run.
func shexecBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "shexec-mcp-test-")
		if built.err != nil {
			return
		}
		tags := ""
		if portableBuild {
			tags = "portable"
		}
		for _, prog := range []string{"shexec", "shexec-mcp"} {
			if out, err := osexec.Command("go", "build", "-tags="+tags, "-o", filepath.Join(built.dir, prog), "../cmd/"+prog).CombinedOutput(); err != nil {
				built.err = fmt.Errorf("go build %s: %v\n%s", prog, err, out)
				return
			}
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return filepath.Join(built.dir, "shexec")
}

// built holds the binaries shexecBinary built; TestMain removes them.
var built struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestStdioEndToEnd drives the real `shexec mcp` with JSON-RPC lines on its
// stdin, as an agent does, and counts the processes left when stdin closes.
func TestStdioEndToEnd(t *testing.T) {
	bin := shexecBinary(t)
	mark := fmt.Sprintf("h16mcp-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { killMarked(mark) })
	cmd := osexec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir())
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(outPipe)
	lines.Buffer(nil, 1<<20)
	send := func(s string) { io.WriteString(in, s+"\n") }
	// recv reads lines until the response with this id (nil: id null).
	recv := func(id any) map[string]any {
		t.Helper()
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("server wrote a line that is not JSON: %q", lines.Text())
			}
			if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				return m
			}
		}
		t.Fatalf("stdout ended before the response %v: %v", id, lines.Err())
		return nil
	}
	call := func(id int, tool string, args string) map[string]any {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
		return recv(float64(id))
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	if r := recv(float64(1)); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	send(`this is not json`)
	if r := recv(nil); r["error"].(map[string]any)["code"] != float64(-32700) {
		t.Fatalf("malformed line: %v", r)
	}
	send(string(make([]byte, 17<<20))) // NUL bytes: not JSON, and over the 16 MiB line limit
	if r := recv(nil); !strings.Contains(fmt.Sprint(r["error"]), "longer than") {
		t.Fatalf("long line: %v", r)
	}
	send(`{"id":2,"hello":1}`)
	if r := recv(float64(2)); r["error"].(map[string]any)["code"] != float64(-32600) {
		t.Fatalf("not JSON-RPC: %v", r)
	}
	if r := call(3, "nope", `{}`); r["error"] == nil {
		t.Fatalf("unknown tool: %v", r)
	}
	if r := call(4, "run", `{}`); r["result"].(map[string]any)["isError"] != true {
		t.Fatalf("missing command: %v", r)
	}
	r := call(5, "run", `{"command":"echo hi; exit 7"}`)
	sc := r["result"].(map[string]any)["structuredContent"].(map[string]any)
	if sc["status"] != "exited" || sc["exit_code"] != float64(7) || sc["output"] != "hi\n" {
		t.Fatalf("run: %v", sc)
	}
	r = call(6, "run", fmt.Sprintf(`{"command":"sleep 81 & setsid sleep 82 & (sleep 83 &); sleep 84","yield":0.5,"env":{"H16_MARK":%q}}`, mark))
	sc = r["result"].(map[string]any)["structuredContent"].(map[string]any)
	if sc["status"] != "running" || sc["job_id"] == "" {
		t.Fatalf("run: %v", sc)
	}
	if n := len(marked(mark)); n < 4 {
		t.Fatalf("%d marked processes while the job runs, want at least 4", n)
	}

	in.Close() // the agent quits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shexec mcp exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("shexec mcp still running 20 s after stdin closed")
	}
	if left := marked(mark); len(left) != 0 {
		t.Fatalf("processes left after stdin closed: %v", left)
	}
}

// TestStdioSignalEndsSession: an agent that stops its server with SIGTERM
// instead of closing stdin leaves nothing behind either.
func TestStdioSignalEndsSession(t *testing.T) {
	bin := shexecBinary(t)
	mark := fmt.Sprintf("h16mcp-sig-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { killMarked(mark) })
	cmd := osexec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir())
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":"setsid sleep 85 & sleep 86","yield":0.5,"env":{"H16_MARK":%q}}}}`, mark)+"\n")
	lines := bufio.NewScanner(outPipe)
	for lines.Scan() && !strings.Contains(lines.Text(), `"id":2`) {
	}
	if n := len(marked(mark)); n < 2 {
		t.Fatalf("%d marked processes while the job runs, want at least 2", n)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("shexec mcp still running 20 s after SIGTERM")
	}
	if left := marked(mark); len(left) != 0 {
		t.Fatalf("processes left after SIGTERM: %v", left)
	}
}

// TestStdioKeepJobs: with --keep-jobs a job outlives the server that handed
// it over, keeps writing its logs, and its record says honestly that its
// exit status is unknown (the server, its shell's parent, was gone when
// the shell ended).
func TestStdioKeepJobs(t *testing.T) {
	bin := shexecBinary(t)
	mark := fmt.Sprintf("h16mcp-keep-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { killMarked(mark) })
	home := t.TempDir()
	cmd := osexec.Command(bin, "mcp", "--keep-jobs")
	cmd.Env = append(os.Environ(), "SHEXEC_HOME="+home)
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":"echo one; sleep 3; echo two; exit 3","yield":0.5,"env":{"H16_MARK":%q}}}}`, mark)+"\n")
	lines := bufio.NewScanner(outPipe)
	var id string
	for lines.Scan() {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				StructuredContent RunOutput `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(lines.Bytes(), &m) == nil && m.ID == 2 {
			id = m.Result.StructuredContent.JobID
			break
		}
	}
	if id == "" {
		t.Fatal("no job id in the run's result")
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("shexec mcp exit: %v", err)
	}
	if len(marked(mark)) == 0 {
		t.Fatal("--keep-jobs: the job was stopped with the server")
	}
	st, err := exec.OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	j, err := st.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != exec.JobExited || j.ExitCode != nil || !strings.Contains(j.Note, "unknown") {
		t.Errorf("kept job ended %s %v %q; want exited, exit status unknown", j.Status, j.ExitCode, j.Note)
	}
	if pg, err := st.ReadLogs(id, false, 0, 10); err != nil || strings.Join(pg.Lines, "\n") != "one\ntwo" {
		t.Errorf("logs %v %v", pg, err)
	}
}
