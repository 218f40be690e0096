//go:build linux

package exec

import (
	"os"
	"path/filepath"
	"testing"
)

// A store directory owned by another user is refused, not used: only root
// can make one, so the test needs root.
func TestMakeHomeRefusesForeignOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to chown a directory to another user")
	}
	d := filepath.Join(t.TempDir(), "shexec-0")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(d, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := makeHome(d); err == nil {
		t.Fatal("makeHome accepted a directory owned by uid 65534")
	}
}
