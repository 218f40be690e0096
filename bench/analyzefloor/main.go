// Command analyzefloor is the cost floor of a pre-exec hook that runs
// shguard's analysis: it reads a Claude Code PreToolUse payload on stdin,
// decodes it as the hook does (into maps), runs analyze.Analyze on its
// command, and exits. It starts as shguard does (internal/startstack).
// Against bench/hookfloor (decode and parse only) it measures what the
// analysis itself costs a process that starts for one command: its code
// paged in, its packages initialised, the walk; against `shguard hook`,
// what the hook adds around it (protocol detection, options, the answer).
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/shguard/shguard/analyze"
	_ "github.com/shguard/shguard/internal/startstack"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var payload, toolInput map[string]json.RawMessage
	var cmd string
	if json.Unmarshal(in, &payload) != nil ||
		json.Unmarshal(payload["tool_input"], &toolInput) != nil ||
		json.Unmarshal(toolInput["command"], &cmd) != nil {
		os.Exit(1)
	}
	if _, err := analyze.Analyze([]byte(cmd), analyze.WithLang(analyze.LangBash)); err != nil {
		os.Exit(1)
	}
}
