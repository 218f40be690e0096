//go:build linux || darwin || freebsd

package exec

import (
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Retention of finished jobs. Records would otherwise pile up (an agent
// session leaves dozens), each with up to two capped logs; a finished job's
// record is worth keeping for reading its logs and status for a while, not
// for ever.
const (
	// DefaultKeepFor is how long a finished job's record is kept after its end.
	DefaultKeepFor = 7 * 24 * time.Hour
	// DefaultKeep is how many finished jobs' records are kept at most, the
	// most recently ended first.
	DefaultKeep = 100
)

// keepFor and keep are the store's limits, its defaults filled in; a
// negative value means no limit.
func (s *Store) keepFor() time.Duration {
	if s.KeepFor == 0 {
		return DefaultKeepFor
	}
	return s.KeepFor
}

func (s *Store) keep() int {
	if s.Keep == 0 {
		return DefaultKeep
	}
	return s.Keep
}

// pruneStamp is a file in the store whose mtime is the last full prune.
const pruneStamp = ".pruned"

// pruneEvery: while the store holds no more than keep records, the age
// limit is applied at most this often. Reading every record costs about
// 2.6 ms for 100 of them, which a job start (a promoted job starts before
// the command's foreground runs) should not pay each time; counting the
// directory's entries and a stat cost a few microseconds.
const pruneEvery = time.Hour

// prune removes the records of finished jobs that ended more than keepFor
// ago, and of the oldest ones beyond keep, in every session. It runs at each
// job creation, so a store is cleaned by being used and needs no daemon.
// Only jobs whose supervisor recorded the end are candidates: a running
// job, or a lost one that may still have processes, keeps its record (see
// Remove). Failures are ignored: hygiene must not cost a job its start.
func (s *Store) prune() {
	keepFor, keep := s.keepFor(), s.keep()
	if keepFor < 0 && keep < 0 {
		return
	}
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		return // not made yet, or unreadable: nothing to prune
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() && validID(e.Name()) {
			n++
		}
	}
	stamp := filepath.Join(s.Dir, pruneStamp)
	if keep < 0 || n <= keep {
		if keepFor < 0 {
			return
		}
		if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < min(pruneEvery, keepFor) {
			return
		}
	}
	now := time.Now()
	if err := os.Chtimes(stamp, now, now); err != nil {
		writeFileAtomic(stamp, nil)
	}
	jobs, err := s.List("")
	if err != nil {
		return
	}
	var ended []*Job
	for _, j := range jobs {
		if j.Ended != nil && j.Status != JobRunning && j.Status != JobLost {
			ended = append(ended, j)
		}
	}
	sort.SliceStable(ended, func(a, b int) bool { return ended[a].Ended.After(*ended[b].Ended) })
	for i, j := range ended {
		if (keep >= 0 && i >= keep) || (keepFor >= 0 && now.Sub(*j.Ended) > keepFor) {
			os.RemoveAll(j.Dir)
		}
	}
}
