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

func corpusInputs(b *testing.B) [][]byte { return inputs(b, false) }

// Most commands an agent runs are clean; these measure that common case.
func cleanInputs(b *testing.B) [][]byte { return inputs(b, true) }

func inputs(b *testing.B, cleanOnly bool) [][]byte {
	var in [][]byte
	for _, e := range corpus.Load() {
		if cleanOnly && len(e.Rules) > 0 {
			continue
		}
		in = append(in, []byte(e.Cmd))
	}
	if len(in) == 0 {
		b.Fatal("empty corpus")
	}
	return in
}

func BenchmarkParse(b *testing.B)      { benchParse(b, corpusInputs(b)) }
func BenchmarkParseClean(b *testing.B) { benchParse(b, cleanInputs(b)) }

func benchParse(b *testing.B, in [][]byte) {
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

func BenchmarkAnalyze(b *testing.B)      { benchAnalyze(b, corpusInputs(b)) }
func BenchmarkAnalyzeClean(b *testing.B) { benchAnalyze(b, cleanInputs(b)) }

func benchAnalyze(b *testing.B, in [][]byte) {
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
