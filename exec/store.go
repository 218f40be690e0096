//go:build linux || darwin || freebsd

package exec

import (
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Environment variables that locate and scope managed jobs.
const (
	// HomeEnv overrides where job records live.
	HomeEnv = "SHEXEC_HOME"
	// SessionEnv scopes listing and clearing to one caller (an agent
	// conversation, a CI run) when --session is not given.
	SessionEnv = "SHEXEC_SESSION"
	// JobIDEnv is set to the job id in the environment of every job. It is
	// how the processes of a job whose supervisor died are still found: a
	// process that calls setsid leaves the group and, once its supervisor is
	// gone, the tree, but it keeps its environment.
	JobIDEnv = "SHEXEC_JOB_ID"
)

// File names inside a job directory.
const (
	metaFile   = "meta.json"
	statusFile = "status.json"
	stdoutLog  = "stdout.log"
	stderrLog  = "stderr.log"
	stdinFIFO  = "stdin"
	ctlFIFO    = "ctl"
	superLog   = "supervisor.log"
	exitFile   = "exit.json" // the main process's exit status, from its ExitReporter
)

// JobState is where a job is in its life.
type JobState string

// Job states. JobExited, JobKilled and JobTimedOut come from the job's supervisor,
// which saw the job end; JobLost means nobody did: the supervisor is gone
// without a status (it was killed, or the machine rebooted).
const (
	JobRunning  JobState = "running"
	JobExited   JobState = "exited"
	JobKilled   JobState = "killed"
	JobTimedOut JobState = "timeout"
	JobLost     JobState = "lost"
)

// JobMeta is meta.json: what was started, where, and how to recognize its
// processes later.
type JobMeta struct {
	ID      string `json:"id"`
	Command string `json:"command"`
	Shell   string `json:"shell,omitempty"`
	// Flags are the shell's options before Command, ending with the one
	// that makes it read Command ("-lc"); empty means "-c".
	Flags   []string `json:"flags,omitempty"`
	Args    []string `json:"args,omitempty"`
	Cwd     string   `json:"cwd"`
	Session string   `json:"session,omitempty"`
	// PID, PGID and StartTime identify the job's main process (the shell,
	// or the first adopted process).
	PID       int    `json:"pid"`
	PGID      int    `json:"pgid"`
	StartTime uint64 `json:"start_time"`
	BootID    string `json:"boot_id"`
	// Adopted lists every process of an adopted job (see Store.Adopt);
	// empty for jobs shexec started.
	Adopted    []ProcRef `json:"adopted,omitempty"`
	Supervisor ProcRef   `json:"supervisor"`
	Started    time.Time `json:"started"`
	TimeoutMS  int64     `json:"timeout_ms,omitempty"`
	GraceMS    int64     `json:"grace_ms,omitempty"`
	// Stdin is "pipe" when Store.Write can feed the job, "null" otherwise.
	Stdin string `json:"stdin"`
	// Origin says how the job came to be: a caller that reads the list
	// can tell a job it asked for from one shexec made out of its
	// command. Empty in records written before the field existed.
	Origin JobOrigin `json:"origin,omitempty"`
	// Marked: the job's processes were started with JobIDEnv set to its
	// id before the job existed (a run handed over to a job, see
	// Proc.Wait), so the tracker of an adopted job also follows what
	// carries the marker or is in the job's group, not only the
	// descendants of the adopted processes.
	Marked bool `json:"marked,omitempty"`
	// ExitReporter is the parent of the job's main process when that
	// parent is not the supervisor but promised to record the main
	// process's exit status when it reaps it (exit.json): a run started
	// in the caller's own process and handed over to a job. Zero when
	// nobody will.
	ExitReporter ProcRef `json:"exit_reporter,omitzero"`
}

// JobOrigin says how a job came to be.
type JobOrigin string

// Job origins.
const (
	// OriginStarted: started as a job on request (Store.Start: shexec
	// --background or --yield).
	OriginStarted JobOrigin = "started"
	// OriginPromoted: a background statement of a foreground command,
	// started as a job before the rest ran (WithPromotion).
	OriginPromoted JobOrigin = "promoted"
	// OriginAdopted: processes a foreground command left behind, taken
	// over after it ended (Store.Adopt).
	OriginAdopted JobOrigin = "adopted"
)

// JobExit is status.json, written once by the supervisor when the job and all
// its descendants are gone.
type JobExit struct {
	How JobState `json:"how"`
	// ExitCode is the main process's exit status, 128+N for signal N, or
	// nil when unknown (adopted processes are not our children, so the
	// kernel never tells us how they ended).
	ExitCode *int      `json:"exit_code"`
	Signal   string    `json:"signal,omitempty"`
	Ended    time.Time `json:"ended"`
	Note     string    `json:"note,omitempty"`
}

// Job is a job record with its current state, as listed by `shexec jobs`.
type Job struct {
	JobMeta
	Status   JobState   `json:"status"`
	ExitCode *int       `json:"exit_code"`
	Signal   string     `json:"signal,omitempty"`
	Ended    *time.Time `json:"ended,omitempty"`
	Note     string     `json:"note,omitempty"`
	Dir      string     `json:"dir"`
}

// Finished reports whether the job will not change state any more on its
// own (a lost job may still have live processes; see Store.Kill).
func (j *Job) Finished() bool { return j.Status != JobRunning }

// WaitCode is the exit code `shexec wait` returns for the job: the job's own
// code; 124 for a timeout as with `shexec --timeout`; 128+N for a job
// without an exit status stopped by signal N; 125 when it is unknown
// (lost, or an adopted job), so an unknown result never reads as success.
func (j *Job) WaitCode() int {
	switch {
	case j.Status == JobTimedOut:
		return 124
	case j.ExitCode != nil:
		return *j.ExitCode
	case j.Status == JobKilled && j.Signal != "":
		if sig := unix.SignalNum(j.Signal); sig != 0 {
			return 128 + int(sig) // an adopted job stopped by shexec kill
		}
	}
	return 125
}

// ErrNoJob is returned for a job id that has no record.
var ErrNoJob = errors.New("no such job")

// ErrJobBusy is returned when removing a job whose processes still run.
var ErrJobBusy = errors.New("job still has live processes; kill it first")

// Store is a directory of job records. The zero value is not usable; use
// OpenStore.
type Store struct {
	// Dir holds one sub-directory per job.
	Dir string

	// KeepFor and Keep bound the records of finished jobs: those that
	// ended longer than KeepFor ago, and the oldest beyond Keep, are
	// removed when the next job is created. Zero means the default
	// (DefaultKeepFor, DefaultKeep); a negative value, no limit.
	KeepFor time.Duration
	Keep    int

	// Supervisor is the program started as a job's supervisor (it must
	// call MaybeSupervise first thing in main); "" is this program. A
	// program heavier to start than shexec (shexec-mcp links an HTTP and
	// JSON-schema stack) can point it at a shexec binary.
	Supervisor string

	// lazy: Dir is made when the first job is created (see StoreAt).
	lazy    bool
	made    sync.Once
	makeErr error
}

// DefaultHome is $SHEXEC_HOME, else ${XDG_STATE_HOME:-~/.local/state}/shexec,
// else (no HOME, as under some daemons, CI runners and `env -i`) a per-user
// directory under the temp dir, which makeHome refuses if another user owns it.
func DefaultHome() (string, error) {
	if d := os.Getenv(HomeEnv); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "shexec"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), fmt.Sprintf("shexec-%d", os.Getuid())), nil
	}
	return filepath.Join(h, ".local", "state", "shexec"), nil
}

// OpenStore opens (creating it 0700 if needed) the job store in dir, or in
// DefaultHome when dir is empty.
func OpenStore(dir string) (*Store, error) {
	s, err := StoreAt(dir)
	if err != nil {
		return nil, err
	}
	if err := makeHome(s.Dir); err != nil {
		return nil, err
	}
	return s, nil
}

// StoreAt is OpenStore without touching the disk until a job is created
// (Start, Adopt), which is when the directory is made. It is for a caller
// that only may need a store: every `shexec -c` may promote or adopt, and
// the common command does neither, so its run should not stat and create
// directories in $HOME. Reading from a store that does not exist yet
// (List, Load) finds no job.
func StoreAt(dir string) (*Store, error) {
	if dir == "" {
		d, err := DefaultHome()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &Store{Dir: abs, lazy: true}, nil
}

// makeHome creates dir (0700) if needed. Commands, environments and output
// are nobody else's business; a home that others can read is made private.
func makeHome(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err != nil {
		return err
	} else if err := checkOwner(dir, fi); err != nil {
		return err
	} else if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// validID reports whether id is a job id: 8 characters a-z2-7. (A
// function, not a regexp: compiling one at init cost every start of shexec
// about 0.1 ms.)
func validID(id string) bool {
	if len(id) != 8 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

// b32 is lowercase RFC 4648 base32: short ids that are easy to type and
// safe as file names.
var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newJobDir makes a fresh job directory with a random 8-character id (40
// bits). mkdir fails when the name exists, so two concurrent starts can
// never share a directory even if their random ids collide.
func (s *Store) newJobDir() (id, dir string, err error) {
	if s.lazy {
		if s.made.Do(func() { s.makeErr = makeHome(s.Dir) }); s.makeErr != nil {
			return "", "", s.makeErr
		}
	}
	for range 16 {
		var b [5]byte
		if b, err = randomBytes(); err != nil {
			return "", "", err
		}
		id = b32.EncodeToString(b[:])
		dir = filepath.Join(s.Dir, id)
		err = os.Mkdir(dir, 0o700)
		if err == nil {
			return id, dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", err
		}
	}
	return "", "", fmt.Errorf("no free job id in %s: %w", s.Dir, err)
}

// newJobID draws a job id without touching the disk: a run that may
// become a job carries it (JobIDEnv) from its start, and its directory is
// made only if it does (reserveJobDir).
func newJobID() (string, error) {
	b, err := randomBytes()
	if err != nil {
		return "", err
	}
	return b32.EncodeToString(b[:]), nil
}

// reserveJobDir makes the directory of job id, chosen before (newJobID).
// It fails with fs.ErrExist when the id is taken.
func (s *Store) reserveJobDir(id string) (string, error) {
	if s.lazy {
		if s.made.Do(func() { s.makeErr = makeHome(s.Dir) }); s.makeErr != nil {
			return "", s.makeErr
		}
	}
	if !validID(id) {
		return "", fmt.Errorf("%q is not a job id", id)
	}
	dir := filepath.Join(s.Dir, id)
	return dir, os.Mkdir(dir, 0o700)
}

// jobDirFor is the directory of a job whose id was chosen before: made by
// reserveJobDir (then it has no record yet), or made now.
func (s *Store) jobDirFor(id string) (string, error) {
	dir, err := s.reserveJobDir(id)
	if errors.Is(err, fs.ErrExist) {
		if _, serr := os.Stat(filepath.Join(dir, metaFile)); serr == nil {
			return "", fmt.Errorf("job %s exists already", id)
		}
		err = nil
	}
	return dir, err
}

func (s *Store) jobDir(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("%w: %q (ids are 8 characters a-z2-7)", ErrNoJob, id)
	}
	return filepath.Join(s.Dir, id), nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so a reader sees the old file or the new one,
// never a torn one. The file is created 0600 and synced before the rename so
// that a crash does not leave an empty record behind.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func writeJSONAtomic(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'))
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Load reads a job record and works out its current state.
func (s *Store) Load(id string) (*Job, error) {
	dir, err := s.jobDir(id)
	if err != nil {
		return nil, err
	}
	var m JobMeta
	if err := readJSON(filepath.Join(dir, metaFile), &m); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNoJob, id)
		}
		return nil, fmt.Errorf("job %s: %w", id, err)
	}
	j := &Job{JobMeta: m, Dir: dir}
	if s.readExit(j) {
		return j, nil
	}
	// No status yet. The job runs as long as its supervisor does; the
	// status is read again after the liveness check because the supervisor
	// writes it just before exiting.
	if m.BootID == bootID() && refAlive(m.Supervisor) {
		j.Status = JobRunning
		return j, nil
	}
	if s.readExit(j) {
		return j, nil
	}
	j.Status = JobLost
	if m.BootID != bootID() {
		j.Note = "the machine rebooted since the job started"
	} else {
		j.Note = "the supervisor is gone and recorded no status"
	}
	return j, nil
}

func (s *Store) readExit(j *Job) bool {
	var e JobExit
	if err := readJSON(filepath.Join(j.Dir, statusFile), &e); err != nil {
		return false
	}
	j.Status, j.ExitCode, j.Signal, j.Note = e.How, e.ExitCode, e.Signal, e.Note
	ended := e.Ended
	j.Ended = &ended
	return true
}

// List returns the jobs of session (all jobs when session is empty), oldest
// first. Directories without meta.json are jobs still being started (or whose
// start failed) and are skipped.
func (s *Store) List(session string) ([]*Job, error) {
	ents, err := os.ReadDir(s.Dir)
	if s.lazy && errors.Is(err, fs.ErrNotExist) {
		return nil, nil // not made yet: no job was ever created here
	}
	if err != nil {
		return nil, err
	}
	var jobs []*Job
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		j, err := s.Load(e.Name())
		if errors.Is(err, ErrNoJob) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if session != "" && j.Session != session {
			continue
		}
		jobs = append(jobs, j)
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		if !jobs[a].Started.Equal(jobs[b].Started) {
			return jobs[a].Started.Before(jobs[b].Started)
		}
		return jobs[a].ID < jobs[b].ID
	})
	return jobs, nil
}

// Remove deletes the record of a job that is over. A running job, or a lost
// one whose processes still run, is refused: without its record nothing
// could find and kill those processes any more.
func (s *Store) Remove(id string) error {
	j, err := s.Load(id)
	if err != nil {
		return err
	}
	if j.Status == JobRunning || (j.Status == JobLost && len(s.jobProcs(j)) > 0) {
		return fmt.Errorf("job %s: %w", id, ErrJobBusy)
	}
	return os.RemoveAll(j.Dir)
}

// Clear removes every finished job of session (all sessions when session is
// empty) and returns their ids. JobRunning jobs and lost jobs with live
// processes are kept.
func (s *Store) Clear(session string) ([]string, error) {
	jobs, err := s.List(session)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, j := range jobs {
		if j.Status == JobRunning {
			continue
		}
		if err := s.Remove(j.ID); err != nil {
			if !errors.Is(err, ErrJobBusy) {
				errs = append(errs, err)
			}
			continue
		}
		removed = append(removed, j.ID)
	}
	return removed, errors.Join(errs...)
}
