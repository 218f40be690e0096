package fuzz

import (
	"os"
	"strings"
	"testing"
)

// seeds returns the shared seed commands of testdata/seeds.txt and the
// commands of the corpus (see corpusSeeds).
func seeds(tb testing.TB) []string {
	b, err := os.ReadFile("testdata/seeds.txt")
	if err != nil {
		tb.Fatal(err)
	}
	parts := strings.Split(string(b), "\n----\n")
	out := make([]string, 0, len(parts))
	for _, p := range parts[1:] { // parts[0] is the header
		out = append(out, strings.TrimSuffix(p, "\n"))
	}
	return append(out, corpusSeeds()...)
}
