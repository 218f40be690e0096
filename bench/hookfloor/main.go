// Command hookfloor is the cost floor of a pre-exec hook written in Go on
// shguard's parser: it reads a Claude Code PreToolUse payload on stdin,
// decodes it with encoding/json, parses its command with
// mvdan.cc/sh/v3/syntax, and exits; with -parse, stdin is the command and
// it only parses. It starts as shguard does (internal/startstack), so the
// difference to `shguard hook` in bench/hook.sh is the analysis, the
// answer and shguard's own packages.
package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	_ "github.com/shguard/shguard/internal/startstack"
	"mvdan.cc/sh/v3/syntax"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	cmd := string(in)
	if len(os.Args) < 2 || os.Args[1] != "-parse" {
		// The payload's fields as the hook reads them (hook/protocol.go):
		// objects into maps, no struct decoding.
		var payload, toolInput map[string]json.RawMessage
		if json.Unmarshal(in, &payload) != nil ||
			json.Unmarshal(payload["tool_input"], &toolInput) != nil ||
			json.Unmarshal(toolInput["command"], &cmd) != nil {
			os.Exit(1)
		}
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err != nil {
		os.Exit(1)
	}
}
