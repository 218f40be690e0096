//go:build linux || darwin || freebsd

package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is the SDK's newline-delimited JSON-RPC transport over r and w,
// with one difference: a line that is not JSON, or not a JSON-RPC message,
// is answered with a protocol error (-32700 parse error, -32600 invalid
// request) and the server goes on. The SDK's own stdio transport ends the
// connection at the first such line, and with it the agent's shell tool.
func Stdio(r io.Reader, w io.WriteCloser) mcp.Transport {
	pr, pw := io.Pipe()
	lw := &lineWriter{w: w}
	go filterLines(r, pw, lw)
	return &mcp.IOTransport{Reader: pr, Writer: lw}
}

// lineWriter serializes whole-line writes: the SDK writes one message per
// Write, and so do the protocol errors of filterLines.
type lineWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return l.w.Close() }

// maxLine bounds the memory one inbound line may take, as the SDK's own
// transport does (mcp.DefaultMaxLineLength).
const maxLine = mcp.DefaultMaxLineLength

// filterLines copies the valid lines of r to pw and answers the others on
// out. EOF (or an error) on r closes pw, which ends the session.
func filterLines(r io.Reader, pw *io.PipeWriter, out io.Writer) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if tooLong {
			out.Write(errorLine(nil, -32700, "parse error: line longer than 16 MiB"))
		} else if t := bytes.TrimSpace(line); len(t) > 0 {
			if resp := protocolError(t); resp != nil {
				out.Write(resp)
			} else if _, werr := pw.Write(append(t, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			pw.CloseWithError(err)
			return
		}
	}
}

// protocolError is the error response for a line the SDK must not see, or
// nil for a line that looks like JSON-RPC (a batch is left to the SDK).
func protocolError(line []byte) []byte {
	if !json.Valid(line) {
		return errorLine(nil, -32700, "parse error: the line is not JSON")
	}
	if line[0] == '[' {
		return nil
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" || (m.Method == "" && m.Result == nil && m.Error == nil) {
		var id json.RawMessage
		if len(m.ID) > 0 && (m.ID[0] == '"' || (m.ID[0] >= '0' && m.ID[0] <= '9') || m.ID[0] == '-') {
			id = m.ID
		}
		return errorLine(id, -32600, "invalid request: want a JSON-RPC 2.0 object with \"jsonrpc\":\"2.0\" and a \"method\"")
	}
	return nil
}

func errorLine(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}

// readLine reads up to and including the next newline. A line longer than
// maxLine is read to its end but not kept (tooLong).
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}
