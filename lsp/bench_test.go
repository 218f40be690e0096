package lsp

import (
	"os"
	"path/filepath"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// BenchmarkChange is what the server does after a keystroke in an ordinary
// script, once the debounce is over: apply the incremental change, make
// the snapshot with its options, analyse, and turn the findings into
// diagnostics. The scripts are the repository's own (bench/*.sh, .ci/run:
// 60 to 200 lines).
func BenchmarkChange(b *testing.B) {
	paths, _ := filepath.Glob("../bench/*.sh")
	paths = append(paths, "../.ci/run")
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(p), func(b *testing.B) {
			t := newText(src)
			var cfg config
			change := protocol.TextDocumentContentChangeEvent{
				Range: &protocol.Range{Start: t.position(len(src) / 2), End: t.position(len(src) / 2)},
				Text:  "",
			}
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				nt, err := t.apply(change)
				if err != nil {
					b.Fatal(err)
				}
				_, hint := isShell("sh", p, nt.src)
				s := &snapshot{text: nt, opts: cfg.options(nt.src, hint, nil)}
				diagnostics(s)
			}
		})
	}
}
