package fuzz

import "github.com/shguard/shguard/corpus"

// corpusSeeds returns the commands of the corpus (../corpus), both as
// agents write them and their runnable stand-ins.
func corpusSeeds() []string {
	var out []string
	for _, e := range corpus.Load() {
		out = append(out, e.Cmd)
		if e.Run != "" {
			out = append(out, e.Run)
		}
	}
	return out
}
