package walk

import (
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// The foreground of a shell that `timeout --foreground` ends may be a
// pipeline or a loop rather than one program (see walk_timeoutcut.go).
// Every element of a pipeline is a child of that shell: timeout signals
// the shell alone, it dies, and the elements run on, the reader holding
// the caller's output as long as the writer feeds it: `timeout
// --foreground 60 sh -c './server | tee log; echo done'` leaves the server
// and tee (checked under bash, zsh, dash and mksh in both caller modes,
// with the string run by sh, bash and zsh). A filter after an element that
// ends at once ends with its input (`echo hi | cat` is no candidate). A
// while or until loop whose condition lets it in runs its first round's
// programs before any unknown time passes: `while :; do ./poll; sleep 1;
// done` meets the limit in ./poll, as far as the walk can tell (the
// loop's own count of rounds is no time spent); a later round's program
// is not followed.

// pipeCut is the foreground pipeline of the watched shell being walked.
type pipeCut struct {
	c *syntax.BinaryCmd
	// hit: the program at the limit is an element of it, so the programs
	// of its other elements run on too.
	hit bool
	// quick: the element being walked is a filter whose input ends at
	// once: it is over before the limit.
	quick bool
}

// cutPipeline notes that the watched shell (or a foreground fork of it)
// starts walking the pipeline c, and returns the function that ends the
// note.
func (w *walker) cutPipeline(c *syntax.BinaryCmd) func() {
	cut := w.cut
	if cut == nil || cut.done || cut.sh == nil || cut.pipe.c != nil || !cut.owns(w.sh) {
		return func() {}
	}
	cut.pipe.c = c
	return func() { cut.pipe = pipeCut{} }
}

// cutFilter notes that the pipeline element s being walked is a filter
// that ends with its input, which the elements before it (upstream: they
// keep writing a while) do not keep open: the limit does not find it.
func (w *walker) cutFilter(s *syntax.Stmt, upstream bool) func() {
	cut := w.cut
	if cut == nil || cut.pipe.c == nil || upstream {
		return func() {}
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !knowledge.IsFilter(w.p.resolveCall(ce)) || readsProcSubst(ce) {
		return func() {}
	}
	cut.pipe.quick = true
	return func() { cut.pipe.quick = false }
}

// cutPipeElem adds the program r of another element of the pipeline in
// which the limit found its program: it runs on as that one does.
func (w *walker) cutPipeElem(cut *timeoutCut, s *syntax.Stmt, r knowledge.Resolved, inner fdtable.Table) {
	if !cut.pipe.hit || len(cut.found) == 0 || !cut.owns(w.sh) || w.job != cut.job || w.cutReaches(cut, r) {
		return
	}
	first := cut.found[0]
	cut.found = append(cut.found, &timeoutLeft{stmt: s, src: w.src, prog: r, fds: inner, scope: w.scope(), region: w.exitRegion(), inJob: w.job != nil, rest: first.rest, bounded: first.bounded})
}

// cutLoopRound notes that the watched shell enters the first round of a
// loop whose number of rounds the walk does not know (which it counts as
// a while in w.slow): that count is no time passed before the round's
// programs. It returns the function to call after the first round: the
// limit, if not met by then, comes in a round the walk does not follow.
func (w *walker) cutLoopRound() func() {
	cut := w.cut
	if cut == nil || cut.done || cut.sh == nil || cut.slow != w.slow-1 || !cut.owns(w.sh) || w.job != cut.job {
		return func() {}
	}
	cut.slow++
	return func() { cut.done = true }
}
