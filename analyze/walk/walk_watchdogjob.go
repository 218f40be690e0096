package walk

import (
	"slices"
	"time"
)

// A watchdog of a job: `( sleep 30; kill $P ) & W=$!; wait $P; kill $W`,
// and the timeout functions agents write around it. Its kill lands the
// delay of its body after it starts, not when it starts:
//
//   - a wait for the job it kills lasts until the kill when the job
//     surely runs longer (literal durations both): the kill then surely
//     happened (fired), and the watchdog, whose body ends with it, is
//     gone, so `kill $W` leaves nothing (`sleep 60 & P=$!; ( sleep 0.5;
//     kill $P ) & W=$!; wait $P; kill $W` is clean in all four shells);
//     a job that may end first (a build, a test run, a program of
//     unknown length) leaves the watchdog sleeping when the script kills
//     it, as `run_with_timeout 300 make test` does once make is done: the
//     walk takes that, the outcome that leaves a process behind;
//   - a kill of the watchdog before its delay cancels its kill (see
//     killSubshell), and leaves its sleep running;
//   - when the script ends first, the job runs on until the delay is
//     over: `./server & ( sleep 30; kill $! ) >/dev/null 2>&1 &` holds the
//     caller for 30 seconds (see watchdogsLate); a delay that is not
//     literal leaves it running for a time the walk does not know.

// watchdogFired notes, for the wait for j that the shell does, that the
// kill of j in another job's body surely happened before j ended by
// itself, and returns how long after that job's start, known when its
// body's durations are literal.
func (w *walker) watchdogFired(j *Job) (at time.Duration, known, fired bool) {
	o := j.endedBy
	if o == nil || !j.Killed {
		return 0, false, false
	}
	i := slices.IndexFunc(o.innerEnded, func(e innerEnd) bool { return e.job == j })
	if i < 0 {
		return 0, false, false
	}
	e := &o.innerEnded[i]
	known = e.slow == 0 && o.startSlow == w.slow
	if !j.timed || !known || j.startSlow != o.startSlow || j.startBounded+j.dur <= o.startBounded+e.bounded {
		return 0, false, false // it may end by itself first
	}
	e.fired = true
	return o.startBounded + e.bounded, known, true
}

// watchdogDone reports whether the job j is a watchdog whose kill the
// shell saw happen, with nothing of its body that takes a while after it.
func (w *walker) watchdogDone(j *Job) bool {
	return slices.ContainsFunc(j.innerEnded, func(e innerEnd) bool { return e.fired && e.fgLong == j.fgLong })
}

// watchdogsLate takes back, once the walk is done, the kills that
// watchdogs of jobs make after the script ended (slept: its sure sleeps,
// see endsWithShell): the job runs on until then, a time the delay of
// the watchdog's body says, or does not.
func watchdogsLate(jobs []*Job) {
	for _, j := range jobs {
		o := j.endedBy
		if o == nil || !j.Killed || o.Killed || o.waited || j.waited {
			continue
		}
		i := slices.IndexFunc(o.innerEnded, func(e innerEnd) bool { return e.job == j })
		if i < 0 || o.innerEnded[i].fired || o.inJob || j.inJob {
			continue
		}
		e := o.innerEnded[i]
		j.Killed, j.KilledLate = false, true
		if e.slow == 0 {
			// it ends when the kill comes (see endsWithShell)
			at := o.slept - j.slept + e.bounded
			if !j.timed || at < j.dur {
				j.timed, j.dur = true, at
			}
		}
	}
}
