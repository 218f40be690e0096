package lsp

import (
	"bytes"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// KindFixAll is the code action kind of "fix all in file": editors run
// source.fixAll actions on save when asked to (VS Code's
// editor.codeActionsOnSave, Neovim's vim.lsp.buf.code_action{context={only=…}}).
const KindFixAll = protocol.CodeActionKind("source.fixAll.shguard")

// codeActions are the actions for a range of a snapshot: each fix of each
// finding the range touches, a directive that disables its rule for the
// statement, and "fix all in file" (as a quick fix next to a fixable
// finding, and as source.fixAll when that kind is asked for).
func codeActions(snap *snapshot, rng protocol.Range, only []protocol.CodeActionKind) []protocol.CodeAction {
	res, err := snap.analysis()
	if err != nil {
		return nil // nothing to fix in a text that does not parse
	}
	t := snap.text
	from, to := t.offset(rng.Start), t.offset(rng.End)
	var out []protocol.CodeAction
	fixable := false
	for _, f := range res.Findings {
		if f.End.Offset < from || f.Start.Offset > to {
			continue
		}
		diag := diagnostic(t, f, f.Start.Offset, f.End.Offset)
		for i, fix := range f.Fixes {
			if wantKind(only, protocol.CodeActionKindQuickFix) {
				out = append(out, action("Fix "+f.Rule+": "+fix.Message, protocol.CodeActionKindQuickFix, snap, textEdits(t, fix.Edits), diag, i == 0))
			}
			fixable = true
		}
		if wantKind(only, protocol.CodeActionKindQuickFix) {
			if e, rules, ok := disableEdit(snap, res, f); ok {
				title := "Disable " + f.Rule + " for this statement (a # shguard directive)"
				if len(rules) > 1 {
					title = "Disable " + f.Rule + " for this statement (a # shguard directive; with " + strings.Join(rules[1:], ", ") + ", which it hides)"
				}
				out = append(out, action(title, protocol.CodeActionKindQuickFix, snap, []protocol.TextEdit{e}, diag, false))
			}
		}
	}
	quick := fixable && wantKind(only, protocol.CodeActionKindQuickFix)
	// The source action only when asked by kind: a client that asks for
	// everything at the cursor would list "fix all" twice.
	source := len(only) > 0 && wantKind(only, KindFixAll) && anyFix(res.Findings)
	if quick || source {
		if edits := fixAll(snap); len(edits) > 0 {
			if quick {
				out = append(out, action("Fix all shguard problems in this file", protocol.CodeActionKindQuickFix, snap, edits, protocol.Diagnostic{}, false))
			}
			if source {
				out = append(out, action("Fix all shguard problems in this file", KindFixAll, snap, edits, protocol.Diagnostic{}, false))
			}
		}
	}
	return out
}

// wantKind says whether an action of kind k is asked for: everything when
// the request names no kinds, else the kinds named and their sub-kinds
// (only=["source"] wants source.fixAll.shguard).
func wantKind(only []protocol.CodeActionKind, k protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if k == o || strings.HasPrefix(k, o+".") {
			return true
		}
	}
	return false
}

func anyFix(fs []analyze.Finding) bool {
	for _, f := range fs {
		if len(f.Fixes) > 0 {
			return true
		}
	}
	return false
}

func action(title string, kind protocol.CodeActionKind, snap *snapshot, edits []protocol.TextEdit, diag protocol.Diagnostic, preferred bool) protocol.CodeAction {
	a := protocol.CodeAction{
		Title: title,
		Kind:  &kind,
		Edit:  &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{snap.uri: edits}},
	}
	if diag.Message != "" {
		a.Diagnostics = []protocol.Diagnostic{diag}
	}
	if preferred {
		a.IsPreferred = &preferred
	}
	return a
}

func textEdits(t *text, edits []analyze.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: t.rangeOf(e.Start, e.End), NewText: e.New})
	}
	return out
}

// fixAll is what `shguard --fix` makes of the snapshot, as one edit of
// the part that changed (a whole-document edit would move the cursor and
// fold state in most editors).
func fixAll(snap *snapshot) []protocol.TextEdit {
	res, err := fix(snap.text.src, snap.opts)
	if err != nil || len(res.Applied) == 0 {
		return nil
	}
	src, out := snap.text.src, res.Out
	pre := 0
	for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
		pre++
	}
	suf := 0
	for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
		suf++
	}
	if bytes.Equal(src, out) {
		return nil
	}
	return []protocol.TextEdit{{Range: snap.text.rangeOf(pre, len(src)-suf), NewText: string(out[pre : len(out)-suf])}}
}

// fix is rewrite.Fix with the analyzer's panics caught (see run).
func fix(src []byte, opts []analyze.Option) (res *rewrite.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, &panicError{value: v}
		}
	}()
	return rewrite.Fix(src, opts...)
}
