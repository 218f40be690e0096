package lsp

import (
	"fmt"
	"time"

	"github.com/shguard/shguard/analyze"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Debounce is how long the server waits after a change before analysing:
// long enough that a burst of keystrokes costs one analysis, short enough
// to feel immediate. Opening and saving analyse at once.
const Debounce = 60 * time.Millisecond

// BigFile is the size above which a document is analysed on open and save
// only, not after each change: the analysis grows faster than the text
// (1 MB of functions takes seconds), and re-running it after every pause
// in typing would keep a core busy for a file whose diagnostics would
// always arrive late. Hovers and code actions still see the current text.
const BigFile = 512 << 10

// schedule (re)starts d's diagnostics timer. The caller holds s.mu.
func (s *Server) schedule(d *document, delay time.Duration) {
	if d.timer != nil {
		d.timer.Stop()
	}
	uri := d.uri
	d.timer = time.AfterFunc(delay, func() { s.publish(uri) })
}

// publish analyses the latest snapshot of a document and sends its
// diagnostics. It runs on a timer's goroutine, never on the one reading
// messages, so a huge file delays only its own diagnostics: hovers, code
// actions and other documents go on. One run per document at a time;
// a change during a run starts the next as soon as it ends, and the
// stale run's diagnostics are not sent.
func (s *Server) publish(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.snap == nil {
		s.mu.Unlock()
		return
	}
	if d.running {
		d.again = true
		s.mu.Unlock()
		return
	}
	d.running = true
	snap := d.snap
	s.mu.Unlock()

	diags := diagnostics(snap)
	if pf, ok := snap.err.(*panicError); ok {
		fmt.Fprintf(s.log, "shguard lsp: %s: %v\n%s", uri, pf.value, pf.stack)
	}

	s.mu.Lock()
	d.running = false
	current := s.docs[uri] == d && d.snap == snap
	again := d.again || (s.docs[uri] == d && !current)
	d.again = false
	s.mu.Unlock()
	if current {
		v := protocol.UInteger(snap.version)
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{
			URI: uri, Version: &v, Diagnostics: diags,
		})
		if s.verbose {
			fmt.Fprintf(s.log, "shguard lsp: %s v%d: %d diagnostic(s) in %v\n", uri, snap.version, len(diags), snap.took)
		}
	}
	if again {
		go s.publish(uri)
	}
}

const source = "shguard"

// diagnostics are the snapshot's findings as LSP diagnostics; a text that
// does not parse gets one, at the error.
func diagnostics(snap *snapshot) []protocol.Diagnostic {
	res, err := snap.analysis()
	t := snap.text
	if pe, ok := isParseError(err); ok {
		f := pe.Finding()
		off := t.lineCol(pe.Line, pe.Col)
		return []protocol.Diagnostic{diagnostic(t, f, off, off)}
	}
	if err != nil {
		sev := protocol.DiagnosticSeverityError
		src := source
		return []protocol.Diagnostic{{Range: t.rangeOf(0, 0), Severity: &sev, Source: &src, Message: err.Error()}}
	}
	out := make([]protocol.Diagnostic, 0, len(res.Findings))
	for _, f := range res.Findings {
		out = append(out, diagnostic(t, f, f.Start.Offset, f.End.Offset))
	}
	return out
}

func diagnostic(t *text, f analyze.Finding, start, end int) protocol.Diagnostic {
	sev := severity(f.Severity)
	src := source
	msg := f.Message
	if f.Suggestion != "" {
		msg += "\nSuggestion: " + f.Suggestion
	}
	if len(f.Fixes) > 0 {
		msg += "\nFix available: " + f.Fixes[0].Message
	}
	d := protocol.Diagnostic{
		Range:    t.rangeOf(start, end),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: f.Rule},
		Source:   &src,
		Message:  msg,
	}
	if f.URL != "" {
		d.CodeDescription = &protocol.CodeDescription{HRef: f.URL}
	}
	return d
}

func severity(s analyze.Severity) protocol.DiagnosticSeverity {
	switch s {
	case analyze.Error:
		return protocol.DiagnosticSeverityError
	case analyze.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}
