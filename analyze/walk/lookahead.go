package walk

// The walk asks questions about statements it has not walked yet: does
// this one end the shell (exits), which jobs do its exits stop first
// (exitKills), which does it surely kill (sureKills, listEnds), does it
// start a job (startsJobs), does a job it starts stay (startsStaying).
// Each follows a call of a function into its body, up to maxNested deep.
// A body that calls k functions, each calling k more, is read k^depth
// times for one question: four calls per body took 12 s of a 1 KB script
// (`f0() { f1 || exit 1; f1 || exit 1; … }`, twelve levels).
//
// So the bodies read for questions are counted between two steps of the
// walk, and past maxBodyLooks each question answers for a body as it
// does past maxNested: the answer that claims least (the shell may end
// there, the body kills nothing for sure, it may start jobs). The corpus's
// 1,950 commands read 9 bodies per step at most; keeping answers
// instead of counting would need every piece of walker state a question
// reads in the key, and a missed one would be a wrong verdict.

// maxBodyLooks bounds the function bodies questions read per walk step.
const maxBodyLooks = 256

// lookInto reports whether a question may read one more function body
// before the walk's next step (see stmt, which resets the count).
func (w *walker) lookInto() bool {
	w.fns.bodyLooks++
	return w.fns.bodyLooks <= maxBodyLooks
}
