package hook

import (
	"encoding/json"
	"fmt"
	"os"
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
	}{
		{"claude/hang.json", "claude", []string{"hookSpecificOutput.permissionDecision=ask", "hookSpecificOutput.updatedInput.run_in_background=true", "hookSpecificOutput.updatedInput.command=cd web && npm run dev", "hookSpecificOutput.updatedInput.description=Start the dev server", "hookSpecificOutput.updatedInput.timeout=120000"}},
		{"claude/leak.json", "claude", []string{"hookSpecificOutput.permissionDecision=", "hookSpecificOutput.updatedInput=", "hookSpecificOutput.additionalContext~runs unchanged"}},
		{"claude/bypass.json", "claude", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.run_in_background=true"}},
		{"claude/dontask_nested.json", "claude", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~Run this instead", "hookSpecificOutput.permissionDecisionReason~bash -c \"python3 -m http.server 8000 >"}},
		{"claude/post.json", "claude", nil},
		{"codex/hang.json", "codex", []string{"hookSpecificOutput.permissionDecision=deny", "hookSpecificOutput.permissionDecisionReason~Run this instead", "hookSpecificOutput.permissionDecisionReason~python3 -m http.server 8000 >"}},
		{"codex/leak.json", "codex", []string{"hookSpecificOutput.permissionDecision=", "hookSpecificOutput.additionalContext~runs unchanged"}},
		{"codex/bypass.json", "codex", []string{"hookSpecificOutput.permissionDecision=allow", "hookSpecificOutput.updatedInput.command~./server >"}},
		{"gemini/hang.json", "gemini", []string{"decision=ask", "hookSpecificOutput.tool_input.is_background=true", "hookSpecificOutput.tool_input.command=npm run dev", "hookSpecificOutput.tool_input.dir_path=web", "hookSpecificOutput.tool_input.description=dev server"}},
		{"gemini/clean.json", "gemini", nil},
		{"gemini/background.json", "gemini", nil},
		{"cursor/hang.json", "cursor", []string{"permission=deny", "agent_message~Run this instead", "agent_message~exec npm start; } >"}},
		{"cursor/leak.json", "cursor", nil},
		{"copilot/hang.json", "copilot", []string{"permissionDecision=deny", "permissionDecisionReason~Run this instead"}},
		{"copilot/edit.json", "copilot", nil},
		{"copilot/object_args.json", "copilot", []string{"permissionDecision=deny", "permissionDecisionReason~npm run dev >"}},
		{"cline/sdk_hang.json", "cline", []string{"cancel=true", "errorMessage~would hang"}},
		{"cline/sdk_string.json", "cline", []string{"cancel=true", "errorMessage~./server >"}},
		{"cline/sdk_structured.json", "cline", []string{"cancel=true", "errorMessage~python3 -m http.server 8000 >", "errorMessage~npm run dev '&'"}},
		{"cline/ext_leak.json", "cline", []string{"cancel=false", "contextModification~runs unchanged"}},
		{"crush/hang.json", "crush", []string{"decision=", "updated_input.command=cd web && npm run dev", "updated_input.run_in_background=true", "context~background"}},
		{"crush/leak.json", "crush", []string{"decision=", "updated_input=", "context~runs unchanged"}},
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
			out, err := answer(t, pr, raw, Options{})
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

// A foreground server gets advice that fits the agent: its background
// mode where it has one, else a redirected job.
func TestServerAdvice(t *testing.T) {
	for _, c := range []struct {
		caps Caps
		want string
	}{
		{Caps{Ask: true, Rewrite: true, Background: true, BackgroundParam: "run_in_background"}, "with run_in_background: true"},
		{Caps{Rewrite: true}, "cmd >server.log 2>&1 &"},
	} {
		ans, err := Respond(Request{Command: "PORT=3000 node_modules/.bin/vite --port 3000"}, c.caps, Options{})
		if err != nil || ans.Kind != Pass || !strings.Contains(ans.Context, "[SG3001]") || !strings.Contains(ans.Context, c.want) {
			t.Errorf("%+v: %+v, %v; want advice with %q", c.caps, ans, err, c.want)
		}
	}
}

// answer runs one payload through its protocol the way the CLI does, in
// an environment with no agent variables and no settings files.
func answer(t *testing.T, pr *Protocol, raw []byte, opt Options) ([]byte, error) {
	if pr.Direct != nil {
		return pr.Direct(raw, opt)
	}
	call, err := pr.Parse(raw, Env{})
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
	b, _ := json.Marshal(v)
	return string(b)
}

// Bad input never blocks: each protocol reports it as an error, and its
// exit status is one its agent treats as a non-blocking hook error.
func TestBadInputExit(t *testing.T) {
	want := map[string]int{"claude": 1, "codex": 1, "gemini": 1, "cursor": 1, "copilot": 0, "cline": 0, "crush": 1, "json": 1}
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
