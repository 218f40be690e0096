package analysisdump

import (
	"bufio"
	"io"
	"os"
	"testing"
)

// Open is where a dump test writes: the file SHGUARD_DUMP names, created
// afresh, flushed and closed when the test ends. Without SHGUARD_DUMP the
// test is skipped, so the dumps cost nothing in `go test ./...`. Only
// test binaries import this package, so testing links nowhere else.
func Open(tb testing.TB) io.Writer {
	tb.Helper()
	path := os.Getenv("SHGUARD_DUMP")
	if path == "" {
		tb.Skip("SHGUARD_DUMP is not set")
	}
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	tb.Cleanup(func() {
		if err := w.Flush(); err != nil {
			tb.Error(err)
		}
		if err := f.Close(); err != nil {
			tb.Error(err)
		}
	})
	return w
}
