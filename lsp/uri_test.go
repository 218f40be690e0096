package lsp

import (
	"path/filepath"
	"testing"
)

func TestURIPath(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///home/u/my%20app/run.sh": "/home/u/my app/run.sh",
		"file:///home/u/a%2Bb.sh":        "/home/u/a+b.sh",
		"file://localhost/etc/x.sh":      "/etc/x.sh",
		"file:///tmp/bad%zz.sh":          "/tmp/bad%zz.sh",
		"untitled:Untitled-1":            "",
		"file:///C:/Users/u/x.sh":        "C:/Users/u/x.sh",
	} {
		if got := uriPath(uri); got != filepath.FromSlash(want) {
			t.Errorf("uriPath(%q) = %q, want %q", uri, got, want)
		}
	}
}
