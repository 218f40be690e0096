package lsp

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/shguard/shguard/shguardrc"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Document synchronization: the notifications that open, change, save and
// close documents, and the settings changes that make every open document
// be analysed again. Each runs on the reading goroutine, in arrival order,
// and only makes a snapshot and schedules its analysis.

func (s *Server) open(uri string, langID string, version int32, src []byte) {
	d := &document{uri: uri, path: uriPath(uri), langID: langID, version: version, text: newText(src)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[uri]; old != nil && old.timer != nil {
		old.timer.Stop()
	}
	s.docs[uri] = d
	s.refresh(d, 0)
}

func (s *Server) change(uri string, version int32, changes []any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return fmt.Errorf("%s is not open", uri)
	}
	t := d.text
	for _, c := range changes {
		var err error
		if t, err = t.apply(c); err != nil {
			return err
		}
	}
	d.text, d.version = t, version
	delay := s.debounce
	if len(t.src) > BigFile {
		delay = -1 // on save (see BigFile)
	}
	s.refresh(d, delay)
	return nil
}

func (s *Server) save(uri string, text *string) {
	if filepath.Base(uriPath(uri)) == ".shguardrc" {
		s.reconfigure()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return
	}
	if text != nil && string(d.text.src) != *text {
		d.text = newText([]byte(*text))
	}
	s.refresh(d, 0)
}

func (s *Server) close(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	delete(s.docs, uri)
	if d != nil && d.timer != nil {
		d.timer.Stop()
	}
	s.mu.Unlock()
	if d != nil && d.snap != nil {
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
	}
}

// reconfigure reads the .shguardrc files again and re-analyses every
// open document.
func (s *Server) reconfigure() {
	s.rcs.clear()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		s.refresh(d, 0)
	}
}

// refresh makes d's snapshot from its text and the settings and schedules
// its diagnostics after delay (not at all when negative). The caller holds
// s.mu.
func (s *Server) refresh(d *document, delay time.Duration) {
	shell, hint := isShell(d.langID, d.path, d.text.src)
	if !shell {
		d.snap = nil
		return
	}
	rc := s.rc(d)
	d.snap = &snapshot{uri: d.uri, version: d.version, text: d.text, opts: s.cfg.options(d.text.src, hint, rc)}
	if delay >= 0 {
		s.schedule(d, delay)
	} else if d.timer != nil {
		d.timer.Stop() // a run scheduled for an older version would publish this one
	}
}

// rc is the .shguardrc for a document on disk, nil for none, for an
// unsaved buffer and with the norc setting. A bad one is shown to the
// user (once per read) and ignored.
func (s *Server) rc(d *document) *shguardrc.Config {
	if s.cfg.norc || d.path == "" {
		return nil
	}
	rc, fresh, err := s.rcs.get(filepath.Dir(d.path))
	if err != nil {
		if fresh {
			go s.showError("shguard: " + err.Error() + " (analysing without it)")
		}
		return nil
	}
	return rc
}
