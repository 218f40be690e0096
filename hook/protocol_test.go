package hook

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Each agent's payloads (testdata, shapes from the agent's own docs or
// source: testdata/ORIGIN.md) are recognised as that agent's and answered
// in its protocol: a command that would hang never gets an answer the
// agent ignores or that fails open, a leak never a prompt.
func TestProtocols(t *testing.T) {
	for _, c := range []struct {
		file, agent string
		// want are "key=value" checks on the decoded answer (dotted keys);
		// "key~text" checks that the value contains text; nil means no
		// answer at all.
		want []string
		env  map[string]string // the agent's environment, when it matters
	}{
		{"claude/hang.json", "claude", []string{"hookSpecificOutput.permissionDecision=ask", "hookSpecificOutput.updatedInput.run_in_background=true", "hookSpecificOutput.updatedInput.command=cd web && npm run dev", "hookSpecificOutput.updatedInput.description=Start the dev server", "hookSpecificOutput.updatedInput.timeout=120000"}, nil},
		{"claude/leak.json", "claude", []string{"hookSpecificOutput.permissionDecision=", "hookSpecificOutput.updatedInput=", "hookSpecificOutput.additionalContext~runs unchanged"}, nil},
		{"claude/bypass.json", "claude", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.run_in_background=true"}, nil},
		{"claude/dontask_nested.json", "claude", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~Run this instead", "hookSpecificOutput.permissionDecisionReason~bash -c \"python3 -m http.server 8000 >"}, nil},
		{"claude/post.json", "claude", nil, nil},
		// claude -p outside bypass: nobody answers "ask", and the user's
		// rules do not allow the command: refused, for the model
		{"claude/headless_default.json", "claude", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~It was not run. Run instead, each as its own call:\n- `./server` with run_in_background: true\n- then: sleep 2; curl -s localhost:8080"}, map[string]string{"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}},
		// interactive: the user is asked, with the change shown
		{"claude/headless_default.json", "claude", []string{"hookSpecificOutput.permissionDecision=ask", "hookSpecificOutput.updatedInput.command~./server "}, map[string]string{"CLAUDE_CODE_ENTRYPOINT": "cli"}},
		{"claude/server_foreground.json", "claude", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.run_in_background=true", "hookSpecificOutput.updatedInput.command=python3 -m http.server 8794", "hookSpecificOutput.additionalContext~background"}, nil},
		{"codex/server_foreground.json", "codex", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.command~bash -c 'python3 -m http.server 8794' >", "hookSpecificOutput.additionalContext~Stop it with"}, nil},
		{"gemini/server_foreground.json", "gemini", []string{"decision=", "hookSpecificOutput.tool_input.is_background=", "hookSpecificOutput.tool_input.command~bash -c 'tail -f app.log' >"}, nil},
		{"copilot/server_foreground.json", "copilot", []string{"permissionDecision=deny", "permissionDecisionReason~It was not run. Run this instead", "permissionDecisionReason~bash -c 'npm run dev' >"}, nil},
		{"cline/cli_both_shapes_coproc.json", "cline", []string{"cancel=false", "overrideInput.commands~bash -c 'coproc ./server; sleep 1' >", "context~Stop it with"}, nil},
		{"cline/ext_hang.json", "cline", []string{"cancel=true", "errorMessage~Run this instead"}, nil},
		{"qwen/hang_lone.json", "qwen", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~Run it again as its own call with is_background: true:\ncd web && npm run dev"}, nil},
		{"qwen/mid.json", "qwen", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~- `./server` with is_background: true\n- then: sleep 2; curl -s localhost:8080"}, nil},
		{"qwen/leak.json", "qwen", []string{"hookSpecificOutput.permissionDecision=", "hookSpecificOutput.additionalContext~runs unchanged"}, nil},
		{"opencode/hang.json", "opencode", []string{"args.command~./server >", "args.description=Start and probe", "args.timeout=120000", "context~stop it with"}, nil},
		{"opencode/server.json", "opencode", []string{"args.command~bash -c 'python3 -m http.server 8794'", "deny="}, nil},
		{"opencode/read.json", "opencode", nil, nil},
		{"codex/hang.json", "codex", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.command~set -m; { exec >", "hookSpecificOutput.updatedInput.command~ </dev/null; python3 -m http.server 8000; } & echo $! >", "hookSpecificOutput.updatedInput.command~; set +m; sleep 1", "hookSpecificOutput.additionalContext~stop it with: kill -- -$(cat "}, nil},
		{"codex/leak.json", "codex", []string{"hookSpecificOutput.permissionDecision=", "hookSpecificOutput.additionalContext~runs unchanged"}, nil},
		{"codex/bypass.json", "codex", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.command~ </dev/null; ./server; } & echo $! >"}, nil},
		{"gemini/hang.json", "gemini", []string{"decision=", "hookSpecificOutput.tool_input.is_background=", "hookSpecificOutput.tool_input.command~bash -c 'npm run dev' >", "hookSpecificOutput.tool_input.dir_path=web", "hookSpecificOutput.tool_input.description=dev server"}, nil},
		{"gemini/clean.json", "gemini", nil, nil},
		{"gemini/background.json", "gemini", nil, nil},
		{"cursor/hang.json", "cursor", []string{"permission=deny", "agent_message~Run this instead", "agent_message~npm start' >"}, nil},
		{"cursor/leak.json", "cursor", nil, nil},
		{"copilot/hang.json", "copilot", []string{"permissionDecision=deny", "permissionDecisionReason~Run this instead"}, nil},
		{"copilot/edit.json", "copilot", nil, nil},
		{"copilot/object_args.json", "copilot", []string{"permissionDecision=deny", "permissionDecisionReason~bash -c 'npm run dev' >"}, nil},
		{"cline/sdk_hang.json", "cline", []string{"cancel=false", "overrideInput.commands~bash -c 'npm run dev' >", "context~Stop it with"}, nil},
		{"cline/sdk_string.json", "cline", []string{"cancel=false", "overrideInput.commands~./server >"}, nil},
		{"cline/sdk_structured.json", "cline", []string{"cancel=false", "overrideInput.commands~python3 -m http.server 8000 >", "overrideInput.commands~npm run dev", "context~Stop it with"}, nil},
		{"cline/ext_leak.json", "cline", []string{"cancel=false", "contextModification~runs unchanged"}, nil},
		{"crush/hang.json", "crush", []string{"decision=", "updated_input.command=cd web && npm run dev", "updated_input.run_in_background=true", "context~background"}, nil},
		{"crush/leak.json", "crush", []string{"decision=", "updated_input=", "context~runs unchanged"}, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			pr, err := Detect(raw)
			if err != nil || pr.Name != c.agent {
				t.Fatalf("detected %v, %v; want %s", pr, err, c.agent)
			}
			out, err := answerEnv(t, pr, raw, Options{}, c.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				if len(out) != 0 {
					t.Errorf("answered %s, want no answer", out)
				}
				return
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("answer %q: %v", out, err)
			}
			for _, w := range c.want {
				key, val, contains := w, "", false
				if k, v, ok := strings.Cut(w, "~"); ok {
					key, val, contains = k, v, true
				} else if k, v, ok := strings.Cut(w, "="); ok {
					key, val = k, v
				}
				s := lookup(got, key)
				if contains && !strings.Contains(s, val) || !contains && s != val {
					t.Errorf("%s = %q, want %s; answer %s", key, s, w, out)
				}
			}
		})
	}
}

// A foreground server is moved out of the tool's way, not advised: to the
// agent's background mode, else into a managed job (shexec's when it is
// on PATH), and an agent that cannot take a change is told the exact
// command; with nowhere to go it stays advice.
func TestForeverMoved(t *testing.T) {
	const cmd = "PORT=3000 node_modules/.bin/vite --port 3000"
	logs := func(n int) string { return fmt.Sprintf("/tmp/sg/job%d.log", n) }
	for _, c := range []struct {
		name string
		caps Caps
		opt  Options
		kind Kind
		want string // in Command (Change) or Reason (Refuse) or Context (Pass)
	}{
		{"background mode", Caps{Ask: true, Rewrite: true, Background: true, BackgroundParam: "run_in_background", Permitted: func(string) bool { return true }}, Options{}, Change, cmd},
		{"shexec job", Caps{Rewrite: true, Silent: true}, Options{Find: func(p string) string { return map[string]string{"shexec": "/usr/bin/shexec"}[p] }, LogFile: logs}, Change, "/usr/bin/shexec --yield 5 --shell bash -c 'PORT=3000 node_modules/.bin/vite --port 3000'"},
		{"log-file job", Caps{Rewrite: true, Silent: true}, Options{Find: func(p string) string { return map[string]string{"setsid": "/usr/bin/setsid"}[p] }, LogFile: logs}, Change, "/usr/bin/setsid bash -c 'PORT=3000 node_modules/.bin/vite --port 3000' >/tmp/sg/job0.log 2>&1 </dev/null & echo $! >/tmp/sg/job0.pid;"},
		{"no rewrite", Caps{}, Options{LogFile: logs}, Refuse, "It was not run. Run this instead, which starts it as a background job and returns with its first lines:\nbash -c"},
		{"background, no rewrite", Caps{Background: true, BackgroundParam: "is_background"}, Options{}, Refuse, "Run it again as its own call with is_background: true:\n" + cmd},
		{"nowhere to go", Caps{Rewrite: true, Silent: true}, Options{}, Pass, "start the server with its output sent to a file"},
	} {
		ans, err := Respond(Request{Command: cmd}, c.caps, c.opt)
		got := map[Kind]string{Change: ans.Command, Refuse: ans.Reason, Pass: ans.Context}[ans.Kind]
		if err != nil || ans.Kind != c.kind || !strings.Contains(got, c.want) {
			t.Errorf("%s: %+v, %v; want kind %v with %q", c.name, ans, err, c.kind, c.want)
		}
		if c.kind == Change && c.caps.Background != ans.Background {
			t.Errorf("%s: background %v", c.name, ans.Background)
		}
	}
}

// answer runs one payload through its protocol the way the CLI does, in
// an environment with no agent variables and no settings files.
func answer(t *testing.T, pr *Protocol, raw []byte, opt Options) ([]byte, error) {
	return answerEnv(t, pr, raw, opt, nil)
}

// answerEnv is answer with these environment variables.
func answerEnv(t *testing.T, pr *Protocol, raw []byte, opt Options, env map[string]string) ([]byte, error) {
	if pr.Direct != nil {
		return pr.Direct(raw, opt)
	}
	call, err := pr.Parse(raw, Env{Getenv: func(k string) string { return env[k] }})
	if err != nil || call == nil {
		return nil, err
	}
	dir := t.TempDir()
	opt.LogFile = func(n int) string { return filepath.Join(dir, fmt.Sprintf("job%d.log", n)) }
	ans, err := Respond(call.Request, call.Caps, opt)
	if err != nil {
		return nil, err
	}
	return call.Render(ans)
}

// lookup follows a dotted key; "" when absent. Scalars print as in JSON
// (true, 1), strings as themselves.
func lookup(m map[string]any, key string) string {
	var v any = m
	for _, k := range strings.Split(key, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = o[k]; !ok {
			return ""
		}
	}
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, _ := marshal(v) // no HTML escaping: commands are full of & and >
	return strings.TrimSpace(string(b))
}

// Bad input never blocks: each protocol reports it as an error, and its
// exit status is one its agent treats as a non-blocking hook error.
func TestBadInputExit(t *testing.T) {
	want := map[string]int{"claude": 1, "codex": 1, "gemini": 1, "cursor": 1, "copilot": 0, "cline": 0, "crush": 1, "opencode": 1, "qwen": 1, "json": 1}
	for name, exit := range want {
		pr := Lookup(name)
		if pr == nil {
			t.Fatalf("no protocol %s", name)
		}
		if pr.ErrorExit != exit {
			t.Errorf("%s: error exit %d, want %d", name, pr.ErrorExit, exit)
		}
		for _, in := range []string{"", "{", "[1,2]", "null", strings.Repeat("x", 1<<20)} {
			if out, err := answer(t, pr, []byte(in), Options{}); err == nil || len(out) != 0 {
				t.Errorf("%s on %.10q: stdout %q, err %v; want an error and no answer", name, in, out, err)
			}
		}
	}
}

// The permission rule forms of Claude Code's docs
// (https://code.claude.com/docs/en/permissions, "Permission rule syntax").
func TestClaudeRules(t *testing.T) {
	rs := claudeRules{
		allow: []string{"Bash(npm run build)", "Bash(npm run test:*)", "Bash(git * main)", "Bash(ls *)", "Bash(* --version)", "Read(./x)"},
		deny:  []string{"Bash(npm run test:e2e)", "Bash(git push *)"},
		ask:   []string{"Bash(git clean *)"},
	}
	for cmd, want := range map[string]string{
		"npm run build":                 "allow",
		"npm run build --watch":         "", // exact rule
		"npm run test":                  "allow",
		"npm run test -- --ci":          "allow",
		"npm run tests":                 "", // the prefix ends at a word
		"git checkout main":             "allow",
		"git merge dev":                 "",
		"git push origin main":          "deny", // deny wins over a matching allow
		"git clean -fdx":                "ask",
		"ls":                            "allow", // a trailing " *" also matches nothing
		"ls -la":                        "allow",
		"lsof":                          "", // word boundary
		"node --version":                "allow",
		"npm run build && ls":           "allow",
		"npm run build && rm -rf x":     "", // every part must be allowed
		"npm run build | tee log":       "",
		"npm run test:e2e":              "deny",
		"ls; git push origin main":      "deny", // a denied part denies the whole
		"ls $(git push origin main)":    "deny", // the whole text is checked too
		"echo $(npm run build)":         "",     // a substitution is not a plain command
		"(npm run build)":               "",
		"timeout 60 npm run build":      "allow", // wrappers are stripped
		"nohup npm run test -- --ci":    "allow",
		"nice -n 5 git checkout main":   "allow",
		"npm run build && npm run test": "allow",
	} {
		if got := rs.decide(cmd); got != want {
			t.Errorf("decide(%q) = %q, want %q", cmd, got, want)
		}
	}
	for _, r := range []string{"Bash", "Bash(*)"} {
		if got := (claudeRules{allow: []string{r}}).decide("anything | at all"); got != "allow" {
			t.Errorf("%s: decide = %q, want allow", r, got)
		}
	}
	// Modes: bypassPermissions runs what no rule stops; dontAsk and the
	// others only what an allow rule lets through.
	if !rs.permits("make", "bypassPermissions") || rs.permits("make", "dontAsk") || rs.permits("git clean -f", "bypassPermissions") {
		t.Error("permission modes")
	}
}

// Cline CLI's refusal ends the tool call, not the run: never "cancel",
// but an input that prints the reason for the model and fails.
func TestClineRefusal(t *testing.T) {
	raw, err := os.ReadFile("testdata/cline/cli_both_shapes_coproc.json")
	if err != nil {
		t.Fatal(err)
	}
	call, err := Cline.Parse(raw, Env{})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := Respond(call.Request, call.Caps, Options{Mode: ModeDeny})
	if err != nil || ans.Kind != Refuse {
		t.Fatalf("Respond = %+v, %v; want a refusal", ans, err)
	}
	out, err := call.Render(ans)
	var got struct {
		Cancel        bool
		OverrideInput struct{ Commands []string }
	}
	if err != nil || json.Unmarshal(out, &got) != nil || got.Cancel || len(got.OverrideInput.Commands) != 1 {
		t.Fatalf("answer %s, %v", out, err)
	}
	c := exec.Command("bash", "-c", got.OverrideInput.Commands[0])
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Run(); err == nil || strings.TrimSpace(stderr.String()) != ans.Reason {
		t.Errorf("the override printed %q, %v; want the reason and a failure", stderr.String(), err)
	}
}

// TestPlainString: a field read without json.Unmarshal reads as
// json.Unmarshal reads it, and every value the shortcut does not take
// is left to json.Unmarshal.
func TestPlainString(t *testing.T) {
	for _, raw := range []string{
		`""`, `"npm test && git status"`, `"a\"b"`, `"tab\there"`, `"\u00e9"`, `"é"`,
		"\"\xff\"", `"back\\slash"`, `"\/"`, `null`, `12`, `true`, `{"a":1}`, `["x"]`,
	} {
		var want string
		wantOK := json.Unmarshal([]byte(raw), &want) == nil && raw != "null"
		got, ok := plainString(json.RawMessage(raw))
		if ok && (!wantOK || got != want) {
			t.Errorf("plainString(%s) = %q, json.Unmarshal gives %q (ok %v)", raw, got, want, wantOK)
		}
		if ok != (wantOK && !strings.ContainsAny(raw[1:len(raw)-1], "\\") && isASCII(raw)) {
			t.Errorf("plainString(%s) took it: %v", raw, ok)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
