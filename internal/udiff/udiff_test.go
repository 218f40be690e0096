package udiff

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Random line edits (changes, insertions, deletions, a missing final
// newline) make diffs that patch turns back into the new text.
func TestUnifiedDiffAppliesWithPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch is not installed")
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 60; i++ {
		var old []string
		for j := r.Intn(40); j >= 0; j-- {
			old = append(old, fmt.Sprintf("line %d", r.Intn(8)))
		}
		var nw []string
		for _, l := range old {
			switch r.Intn(10) {
			case 0:
				nw = append(nw, l+" changed")
			case 1: // deleted
			case 2:
				nw = append(nw, "inserted", l)
			default:
				nw = append(nw, l)
			}
		}
		a, b := strings.Join(old, "\n"), strings.Join(nw, "\n")
		if r.Intn(2) == 0 {
			a += "\n"
		}
		if r.Intn(2) == 0 {
			b += "\n"
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.sh"), []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
		var d bytes.Buffer
		Write(&d, "f.sh", []byte(a), []byte(b))
		if a == b {
			if d.Len() != 0 {
				t.Fatalf("diff of equal texts: %q", d.String())
			}
			continue
		}
		cmd := exec.Command("patch", "-p1", "--quiet")
		cmd.Dir, cmd.Stdin = dir, &d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch: %v\n%s\ndiff:\n%s", err, out, d.String())
		}
		got, _ := os.ReadFile(filepath.Join(dir, "f.sh"))
		if string(got) != b {
			t.Fatalf("patched %q, want %q\ndiff:\n%s", got, b, d.String())
		}
	}
}
