// Package startstack grows the main goroutine's stack once, to 32 KB, as
// the program starts; a command imports it for that side effect.
//
// A goroutine starts with a 2 KB stack and the runtime doubles it when a
// call needs more, copying it each time: it walks every frame, looking
// each function up in the program's tables. `shguard hook` needs about
// 16 KB (the parser's recursion, JSON decoding), so it paid three copies,
// two of them during package initialisation (the parser package compiles
// regular expressions) and one deep in the analysis, where the walk is
// longest; in a process that lives for two milliseconds that was about
// 0.2 ms (bench/hook.sh, docs/benchmarks.md). Growing once, while the
// stack holds a few frames, costs a fraction of one such copy.
//
// It must run before the other packages' initialisation: Go initialises
// packages in import-path order as far as their imports allow (the spec's
// "Package initialization"), and this package imports nothing, so it runs
// first after the runtime (GODEBUG=inittrace=1 shows the order;
// cmd/shguard's TestStartStackFirst checks it).
package startstack

func init() { grow() }

// grow's frame is larger than the stack it starts with, so the runtime
// gives the goroutine a stack with room for it at its first instruction:
// 32 KB, the next power of two. The stack is not shrunk before the
// garbage collector runs, which a short-lived command seldom reaches.
//
//go:noinline
func grow() {
	var frame [16 << 10]byte
	use(frame[:])
}

//go:noinline
func use(b []byte) { b[0] = 1 }
