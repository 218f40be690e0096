package analyze_test

import (
	"bytes"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/corpus"
)

// The analysis sits in front of every command an agent runs, so its cost
// is measured against the floor any AST-based tool pays: parsing the same
// commands. BenchmarkParse and BenchmarkAnalyze run over the whole corpus;
// compare their ns/op (goal: analysis at most 1.5x the bare parse).

func corpusInputs(b *testing.B) [][]byte {
	var in [][]byte
	for _, e := range corpus.Load() {
		in = append(in, []byte(e.Cmd))
	}
	if len(in) == 0 {
		b.Fatal("empty corpus")
	}
	return in
}

func BenchmarkParse(b *testing.B) {
	in := corpusInputs(b)
	p := syntax.NewParser(syntax.KeepComments(true))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range in {
			if _, err := p.Parse(bytes.NewReader(src), ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	in := corpusInputs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range in {
			if _, err := analyze.Analyze(src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
