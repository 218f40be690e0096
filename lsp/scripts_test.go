package lsp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestMachineScripts opens the shell scripts found in the directories
// SHGUARD_LSP_SCRIPTS names (colon-separated, e.g. /usr/bin:/usr/sbin:/etc)
// in one server, as an editor user opening scripts nobody wrote for this
// test would: each gets its diagnostics, a hover and the code actions on
// each finding, and its fix-all equals `shguard --fix FILE`. The server
// must answer all of it and exit cleanly.
func TestMachineScripts(t *testing.T) {
	dirs := os.Getenv("SHGUARD_LSP_SCRIPTS")
	if dirs == "" {
		t.Skip("set SHGUARD_LSP_SCRIPTS=/usr/bin:/etc to open this machine's scripts")
	}
	var files []string
	for _, d := range filepath.SplitList(dirs) {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return nil
			}
			if info, err := e.Info(); err != nil || info.Size() > 256<<10 {
				return nil
			}
			b, err := os.ReadFile(p)
			if err == nil && (bytes.HasPrefix(b, []byte("#!/bin/sh")) || bytes.HasPrefix(b, []byte("#!/bin/bash")) || bytes.HasPrefix(b, []byte("#!/usr/bin/env bash"))) {
				files = append(files, p)
			}
			return nil
		})
	}
	c := start(t, nil)
	findings, actions := 0, 0
	for i, p := range files {
		text, _ := os.ReadFile(p)
		uri := "file://" + p
		c.open(uri, "", 1, string(text))
		ds := c.waitDiags(uri, 1)
		findings += len(ds)
		for _, d := range ds {
			var as []protocol.CodeAction
			c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: d.Range,
				Context: protocol.CodeActionContext{Diagnostics: plain([]diagnostic{d})},
			}, &as)
			actions += len(as)
			var h any
			c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: d.Range.Start,
			}}, &h)
			if h == nil && d.Code != "SG1000" {
				t.Errorf("%s: no hover at %v (%v)", p, d.Range.Start, d.Code)
			}
		}
		var src []protocol.CodeAction
		c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: []string{"source.fixAll"}},
		}, &src)
		got := string(text)
		if len(src) == 1 {
			got = applyEdits(t, got, src[0].Edit.Changes[uri])
		}
		if want := fixed(t, filepath.Base(p), string(text)); want != "" && got != want {
			t.Errorf("%s: fix-all differs from shguard --fix", p)
		}
		c.notify(protocol.MethodTextDocumentDidClose, map[string]any{"textDocument": map[string]any{"uri": uri}})
		if i%50 == 0 {
			t.Logf("%d/%d scripts", i, len(files))
		}
	}
	t.Logf("%d scripts, %d findings, %d code actions", len(files), findings, actions)
	c.exit()
}
