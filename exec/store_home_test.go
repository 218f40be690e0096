//go:build linux

package exec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without SHEXEC_HOME, XDG_STATE_HOME and HOME the store lives in a
// per-user directory under the temp dir, made 0700.
func TestDefaultHomeWithoutHome(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv(HomeEnv, "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", tmp)
	d, err := DefaultHome()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d, tmp+string(filepath.Separator)) {
		t.Fatalf("DefaultHome() = %q, want under %q", d, tmp)
	}
	if err := makeHome(d); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(d)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want 0700", fi.Mode().Perm())
	}
}
