package fuzz

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/analysisdump"
)

// TestDumpAnalyses writes, when SHGUARD_DUMP names a file, everything the
// analyzer and its clients make of every seed of testdata/seeds.txt, every
// file of the fuzz targets' testdata corpora and 2,000 programs of the
// grammar (TestGrammarPrograms' seed), under every shell. Two dumps,
// before and after a refactor of analyze/, must be byte-identical (see
// internal/analysisdump).
func TestDumpAnalyses(t *testing.T) {
	w := analysisdump.Open(t)
	var ids, srcs []string
	b, err := os.ReadFile("testdata/seeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range strings.Split(string(b), "\n----\n")[1:] {
		ids, srcs = append(ids, "seed/"+strconv.Itoa(i)), append(srcs, strings.TrimSuffix(p, "\n"))
	}
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// go test fuzz v1, then string("…") lines: the first argument.
		lines := strings.Split(string(b), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "string(") {
			continue
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err != nil {
			continue
		}
		ids, srcs = append(ids, "fuzzdata/"+filepath.ToSlash(name)), append(srcs, s)
	}
	r := rand.New(rand.NewSource(20261126))
	for i := range 2000 {
		ids, srcs = append(ids, "grammar/"+strconv.Itoa(i)), append(srcs, grammarProgram(r, 2+r.Intn(7)))
	}
	for _, sh := range []string{"bash", "zsh", "dash", "mksh"} {
		lang, _ := analyze.ParseLang(sh)
		for i := range srcs {
			in := analysisdump.Input{ID: ids[i] + "/" + sh, Src: srcs[i], Lang: lang, Caller: analyze.CallerGroupLeader}
			if err := analysisdump.Write(w, in); err != nil {
				t.Fatal(err)
			}
		}
	}
}
