// Package fuzz holds the fuzz targets and property tests of the rewriter:
// the fixed output parses (and bash -n accepts it), fixing twice equals
// fixing once, a fix adds, drops and reorders no command, the finding a fix
// claims to remove is gone, promotion plans split a command without losing
// any of it, and nothing panics. FuzzShells holds what does not depend
// on bash's syntax for zsh, dash and mksh too, in both caller modes, and
// that the pooled analysis answers the same twice. A differential test runs generated
// programs before and after the default fix for each shell (bash, zsh,
// dash, mksh) under that shell and compares what they do.
//
// CI runs each target for a short time:
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzFix$' -fuzztime 30s
//	go test ./fuzz -run '^$' -fuzz '^FuzzFixBrace$' -fuzztime 30s
//	go test ./fuzz -run '^$' -fuzz '^FuzzPlan$' -fuzztime 30s
//	go test ./fuzz -run '^$' -fuzz '^FuzzShells$' -fuzztime 30s
//
// A crasher the fuzzer finds is written under testdata/fuzz/<Target>/ and
// from then on runs as a regression seed in plain `go test`.
package fuzz
