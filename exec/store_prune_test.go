//go:build linux

package exec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestPruneAtJobCreation: creating a job removes the records of finished
// jobs ended longer than KeepFor ago and the oldest beyond Keep; running
// and lost jobs keep theirs.
func TestPruneAtJobCreation(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	s.Keep, s.KeepFor = 3, 48*time.Hour
	now := time.Now().UTC()
	record := func(id string, ended time.Duration, finished bool) {
		dir := filepath.Join(s.Dir, id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		m := JobMeta{ID: id, Command: "true", Started: now.Add(-ended - time.Minute), BootID: bootID()}
		if err := writeJSONAtomic(filepath.Join(dir, metaFile), m); err != nil {
			t.Fatal(err)
		}
		if finished {
			code := 0
			if err := writeJSONAtomic(filepath.Join(dir, statusFile), JobExit{How: JobExited, ExitCode: &code, Ended: now.Add(-ended)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	record("aaaaaaa2", 1*time.Hour, true)
	record("aaaaaaa3", 2*time.Hour, true)
	record("aaaaaaa4", 3*time.Hour, true)
	record("aaaaaaa5", 4*time.Hour, true)  // beyond Keep
	record("aaaaaaa6", 72*time.Hour, true) // older than KeepFor
	record("aaaaaaa7", 5*time.Hour, false) // lost: no status, no supervisor
	j := startJob(t, s, JobSpec{Command: "true"})
	jobs, err := s.List("")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	slices.Sort(ids)
	want := []string{"aaaaaaa2", "aaaaaaa3", "aaaaaaa4", "aaaaaaa7", j.ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("kept %v, want %v", ids, want)
	}

	// Within Keep, the age limit is applied once per pruneEvery: a pass
	// reads every record.
	s.Keep = 100
	record("aaaaaaaz", 72*time.Hour, true)
	startJob(t, s, JobSpec{Command: "true"})
	if _, err := s.Load("aaaaaaaz"); err != nil {
		t.Errorf("pruned again within pruneEvery: %v", err)
	}
	old := time.Now().Add(-pruneEvery - time.Minute)
	os.Chtimes(filepath.Join(s.Dir, pruneStamp), old, old)
	startJob(t, s, JobSpec{Command: "true"})
	if _, err := s.Load("aaaaaaaz"); err == nil {
		t.Error("an old record outlived the next pass")
	}

	// Negative: no limit.
	s.Keep, s.KeepFor = -1, -1
	record("aaaaaaab", 100*time.Hour, true)
	startJob(t, s, JobSpec{Command: "true"})
	if _, err := s.Load("aaaaaaab"); err != nil {
		t.Errorf("with no limits a record was removed: %v", err)
	}
}
