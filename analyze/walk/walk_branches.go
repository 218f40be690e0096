package walk

import "slices"

// $! across alternative branches: which job a later `kill $!` or `wait
// $pid` names when an if, case or && list may have started one of several.

// branchSet collects what $! is after alternative branches: `if …; then
// a & else b & fi; pid=$!` saves a's pid or b's, so a later `wait $pid`
// waits for whichever ran.
type branchSet struct {
	sh     *shell
	before []*Job
	after  []*Job
}

func (w *walker) branches() *branchSet {
	return &branchSet{sh: w.sh, before: w.sh.lasts()}
}

func (b *branchSet) start() { b.sh.last, b.sh.alt = first(b.before), rest(b.before) }

func (b *branchSet) end() {
	for _, j := range b.sh.lasts() {
		if !slices.Contains(b.after, j) {
			b.after = append(b.after, j)
		}
	}
}

// done sets $! to the union of the branches; fallThrough: no branch may
// have run (no else), so $! may also be what it was before.
func (b *branchSet) done(fallThrough bool) {
	if fallThrough {
		for _, j := range b.before {
			if !slices.Contains(b.after, j) {
				b.after = append(b.after, j)
			}
		}
	}
	b.sh.last, b.sh.alt = first(b.after), rest(b.after)
}

// apartFrom adds the jobs started since w.p.jobs had n to w.apart, for
// the branches after the one that started them: `case $1 in start)
// server & echo $! > pid;; stop) kill $(cat pid);; esac` stops nothing
// in the run that starts the server. The slice is clipped first, so an
// enclosing clause's list is never written into.
func (w *walker) apartFrom(n int) {
	if len(w.p.Jobs) > n && w.again == 0 {
		w.apart = append(slices.Clip(w.apart), w.p.Jobs[n:]...)
	}
}

func first(js []*Job) *Job {
	if len(js) == 0 {
		return nil
	}
	return js[0]
}

func rest(js []*Job) []*Job {
	if len(js) < 2 {
		return nil
	}
	return js[1:]
}
