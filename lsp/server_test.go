package lsp_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

const script = "#!/bin/bash\n# start the app\ncd app && npm run dev &\necho started\n"

func TestDiagnosticsOnOpen(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/dev.sh"
	c.open(uri, "sh", 1, script)
	ds := c.waitDiags(uri, 1)
	if got := codes(ds); !slices.Equal(got, []string{"SG1002"}) {
		t.Fatalf("codes %v, want [SG1002]: %+v", got, ds)
	}
	d := ds[0]
	// `cd app && npm run dev &` is line 2 (0-based), the whole list.
	want := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 23}}
	if d.Range != want {
		t.Errorf("range %+v, want %+v", d.Range, want)
	}
	if d.Severity == nil || *d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("severity %v, want error", d.Severity)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.HRef, "/docs/rules/SG1002.md") {
		t.Errorf("codeDescription %+v", d.CodeDescription)
	}
	if d.Source == nil || *d.Source != "shguard" {
		t.Errorf("source %v", d.Source)
	}
	c.exit()
}

func TestCodeActionsApplyTheFix(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/dev.sh"
	c.open(uri, "sh", 1, script)
	ds := c.waitDiags(uri, 1)
	as := c.codeActions(uri, ds[0].Range, ds)
	byTitle := map[string]protocol.CodeAction{}
	var titles []string
	for _, a := range as {
		byTitle[a.Title] = a
		titles = append(titles, a.Title)
	}
	want := fixed(t, "dev.sh", script)
	var fix *protocol.CodeAction
	for _, a := range as {
		if strings.HasPrefix(a.Title, "Fix SG1002") {
			fix = &a
			break
		}
	}
	if fix == nil {
		t.Fatalf("no fix action among %q", titles)
	}
	if fix.IsPreferred == nil || !*fix.IsPreferred {
		t.Errorf("the fix is not the preferred action")
	}
	if got := applyEdits(t, script, fix.Edit.Changes[uri]); got != want {
		t.Errorf("fix made\n%s\nshguard --fix makes\n%s", got, want)
	}
	if !strings.Contains(want, "cd app && exec npm run dev &") {
		t.Errorf("shguard --fix made %q", want)
	}
	all, ok := byTitle["Fix all shguard problems in this file"]
	if !ok {
		t.Fatalf("no fix-all quick fix among %q", titles)
	}
	if got := applyEdits(t, script, all.Edit.Changes[uri]); got != want {
		t.Errorf("fix all made\n%s\nwant\n%s", got, want)
	}

	// source.fixAll, as editors ask for it on save
	var src []protocol.CodeAction
	c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range:        protocol.Range{},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: []string{"source.fixAll"}},
	}, &src)
	if len(src) != 1 || src[0].Kind == nil || *src[0].Kind != "source.fixAll.shguard" {
		t.Fatalf("source.fixAll: %+v", src)
	}
	if got := applyEdits(t, script, src[0].Edit.Changes[uri]); got != want {
		t.Errorf("source.fixAll made\n%s\nwant\n%s", got, want)
	}

	// the directive: applied, the file is clean and the directive used
	var dis *protocol.CodeAction
	for _, a := range as {
		if strings.HasPrefix(a.Title, "Disable SG1002") {
			dis = &a
		}
	}
	if dis == nil {
		t.Fatalf("no disable action among %q", titles)
	}
	silenced := applyEdits(t, script, dis.Edit.Changes[uri])
	if !strings.Contains(silenced, "\n# shguard disable=SG1002,SG2001 -- TODO: say why this is intended\ncd app && npm run dev &\n") {
		t.Errorf("the directive action made\n%s", silenced)
	}
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": silenced}},
	})
	if ds := c.waitDiags(uri, 2); len(ds) != 0 {
		t.Errorf("after the directive: %+v", ds)
	}
	c.exit()
}

// A directive goes above the statement the finding is in, not inside a
// statement continued over lines.
func TestDisableGoesAboveTheStatement(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/cont.sh"
	text := "#!/bin/bash\nif true; then\n  ./server \\\n    --port 80 &\nfi\n"
	c.open(uri, "sh", 1, text)
	ds := c.waitDiags(uri, 1)
	if len(ds) == 0 {
		t.Fatal("no diagnostics")
	}
	as := c.codeActions(uri, ds[0].Range, ds)
	code := ds[0].Code.(string)
	for _, a := range as {
		if strings.HasPrefix(a.Title, "Disable "+code) {
			got := applyEdits(t, text, a.Edit.Changes[uri])
			want := "#!/bin/bash\nif true; then\n  # shguard disable=" + code + ",SG2001 -- TODO: say why this is intended\n  ./server \\\n    --port 80 &\nfi\n"
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			c.exit()
			return
		}
	}
	t.Fatalf("no disable action: %+v", as)
}

func TestHoverExplains(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/dev.sh"
	c.open(uri, "sh", 1, script)
	c.waitDiags(uri, 1)
	var h struct {
		Contents protocol.MarkupContent `json:"contents"`
		Range    *protocol.Range        `json:"range"`
	}
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 2, Character: 12},
	}}, &h)
	explain := cli(t, "", "explain", "SG1002")
	if !strings.Contains(h.Contents.Value, "**SG1002**") || !strings.Contains(h.Contents.Value, explain) {
		t.Errorf("hover:\n%s\nwant it to hold shguard explain SG1002:\n%s", h.Contents.Value, explain)
	}
	// off any finding: no hover, so another server's shows alone
	var none any = "unset"
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 3, Character: 2},
	}}, &none)
	if none != nil {
		t.Errorf("hover off a finding: %v", none)
	}
	c.exit()
}

// Incremental changes are in UTF-16 code units: a change after an emoji
// (two units, four bytes) lands where the editor meant it, and so do the
// diagnostics' ranges.
func TestIncrementalUTF16(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/emoji.sh"
	c.open(uri, "sh", 1, "echo '😀' ; sleep 30\n")
	if ds := c.waitDiags(uri, 1); len(ds) != 0 {
		t.Fatalf("clean script: %+v", ds)
	}
	// insert " &" after "sleep 30": character 20 = 6 + 2 (emoji) + 12
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{
			"range": map[string]any{"start": map[string]any{"line": 0, "character": 20}, "end": map[string]any{"line": 0, "character": 20}},
			"text":  " &",
		}},
	})
	ds := c.waitDiags(uri, 2)
	if got := codes(ds); !slices.Equal(got, []string{"SG1001"}) {
		t.Fatalf("codes %v: %+v", got, ds)
	}
	want := protocol.Range{Start: protocol.Position{Line: 0, Character: 12}, End: protocol.Position{Line: 0, Character: 22}}
	if ds[0].Range != want {
		t.Errorf("range %+v, want %+v (sleep 30 &, after the emoji)", ds[0].Range, want)
	}
	c.exit()
}

func TestParseErrorIsOneDiagnostic(t *testing.T) {
	c := start(t, nil)
	uri := "file:///work/broken.sh"
	c.open(uri, "sh", 1, "#!/bin/bash\necho ok\nif true; then\n  sleep 1 &\n")
	ds := c.waitDiags(uri, 1)
	if len(ds) != 1 || codes(ds)[0] != "SG1000" {
		t.Fatalf("want one SG1000: %+v", ds)
	}
	if ds[0].Range.Start.Line < 2 {
		t.Errorf("the error is placed at %+v, before the if", ds[0].Range)
	}
	// the server is still there
	c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": "#!/bin/bash\necho ok\nif true; then\n  sleep 1 &\nfi\n"}},
	})
	if got := codes(c.waitDiags(uri, 2)); slices.Contains(got, "SG1000") {
		t.Errorf("fixed syntax still reported: %v", got)
	}
	c.exit()
}

func TestSettings(t *testing.T) {
	c := start(t, map[string]any{"shguard": map[string]any{"exclude": "SG1002"}})
	uri := "file:///work/dev.sh"
	text := "cd app && npm run dev &\nnohup ./worker >/dev/null 2>&1 &\npython3 -m http.server\n"
	c.open(uri, "shellscript", 1, text)
	if got := codes(c.waitDiags(uri, 1)); slices.Contains(got, "SG1002") || len(got) == 0 {
		t.Fatalf("exclude from initializationOptions: %v", got)
	}
	all := func(settings any, version int) []string {
		c.notify(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": settings})
		// a change makes a new version to wait for
		c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{"text": text}},
		})
		return codes(c.waitDiags(uri, version))
	}
	every := all(map[string]any{}, 2)
	if !slices.Contains(every, "SG1002") || !slices.Contains(every, "SG3001") {
		t.Fatalf("default settings: %v", every)
	}
	if got := all(map[string]any{"shguard": map[string]any{"severity": "error"}}, 3); !slices.Equal(got, []string{"SG1002"}) {
		t.Errorf("severity=error: %v", got)
	}
	if got := all(map[string]any{"exclude": []string{"SG1002", "foreground-server"}}, 4); slices.Contains(got, "SG1002") || slices.Contains(got, "SG3001") {
		t.Errorf("exclude (unwrapped, by ID and name): %v", got)
	}
	// zsh runs npm itself in the background, not a subshell waiting for
	// it: npm holds the output (SG1001), no compound (SG1002)
	if got := all(map[string]any{"shguard": map[string]any{"shell": "zsh", "severity": "error"}}, 5); !slices.Equal(got, []string{"SG1001"}) {
		t.Errorf("shell=zsh: %v", got)
	}
	// a bad setting is shown and the previous ones stay
	if got := all(map[string]any{"shguard": map[string]any{"severity": "loud"}}, 6); !slices.Equal(got, []string{"SG1001"}) {
		t.Errorf("after a bad setting: %v", got)
	}
	c.mu.Lock()
	shown := strings.Join(c.shown, "\n")
	c.mu.Unlock()
	if !strings.Contains(shown, "severity") {
		t.Errorf("bad setting not shown: %q", shown)
	}
	c.exit()
}

// The shebang wins over the shell setting, and a `# shguard shell=` line
// over both; a Python file is left alone.
func TestDialect(t *testing.T) {
	c := start(t, map[string]any{"shell": "zsh"})
	line := "cd app && npm run dev &\n"
	c.open("file:///work/a.sh", "sh", 1, "#!/bin/bash\n"+line)
	c.open("file:///work/b.sh", "sh", 1, line)
	c.open("file:///work/c.zsh", "zsh", 1, "# shguard shell=bash\n"+line)
	c.open("file:///work/d.py", "python", 1, "import os\n")
	c.open("file:///work/e", "", 1, "#!/usr/bin/env bash\n"+line)
	for uri, want := range map[string]bool{"file:///work/a.sh": true, "file:///work/b.sh": false, "file:///work/c.zsh": true, "file:///work/e": true} {
		if got := slices.Contains(codes(c.waitDiags(uri, 1)), "SG1002"); got != want {
			t.Errorf("%s: SG1002 reported %v, want %v", uri, got, want)
		}
	}
	c.mu.Lock()
	py := c.diags["file:///work/d.py"]
	c.mu.Unlock()
	if len(py) != 0 {
		t.Errorf("diagnostics for a Python file: %+v", py)
	}
	c.exit()
}

// A huge script does not hold up the others: a small one opened after it
// gets its diagnostics and hovers while the huge one is analysed.
func TestHugeFileDoesNotBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses a large script")
	}
	c := start(t, nil)
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "f%d() {\n  cd /tmp/d%d && ./server%d --port %d &\n  wait\n}\nf%d\n", i, i, i, i, i)
	}
	huge := "file:///work/huge.sh"
	c.open(huge, "sh", 1, b.String())
	small := "file:///work/dev.sh"
	began := time.Now()
	c.open(small, "sh", 1, script)
	c.waitDiags(small, 1)
	var h any
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: small}, Position: protocol.Position{Line: 2, Character: 3},
	}}, &h)
	small1 := time.Since(began)
	c.waitDiagsWithin(huge, 1, 5*time.Minute)
	hugeTook := time.Since(began)
	t.Logf("small script answered after %v; the 1 MB one after %v", small1, hugeTook)
	if h == nil {
		t.Errorf("no hover on the small script")
	}
	if small1 > hugeTook/2 {
		t.Errorf("the small script waited for the huge one: %v vs %v", small1, hugeTook)
	}
	c.exit()
}

func TestExitWithoutShutdownFails(t *testing.T) {
	c := start(t, nil)
	c.notify(protocol.MethodExit, nil)
	err := c.cmd.Wait()
	if err == nil {
		t.Errorf("exit without shutdown: status 0, the protocol asks for 1")
	}
}
