//go:build linux || darwin || freebsd

package exec

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// stopFile records that someone stopped the job (Store.Kill) and with which
// signal, for the supervisor to put in the job's status. Without it a job
// whose main process had exited by itself before the kill (the shell of
// `setsid server`, which exits 0 at once) would read "exited (exit 0)",
// though its work was ended by SIGTERM.
const stopFile = "stop.json"

// jobStop is stop.json.
type jobStop struct {
	// Signal is the last signal sent: SIGTERM, or SIGKILL if the grace
	// ran out.
	Signal string `json:"signal"`
	By     string `json:"by"`
}

// recordStop writes stop.json before the signal is sent.
func recordStop(dir string, sig unix.Signal) {
	writeJSONAtomic(filepath.Join(dir, stopFile), jobStop{Signal: unix.SignalName(sig), By: "shexec kill"})
}

// readStop returns the stop record, if the job was stopped.
func readStop(dir string) (jobStop, bool) {
	var s jobStop
	err := readJSON(filepath.Join(dir, stopFile), &s)
	return s, err == nil && s.Signal != ""
}

// stopped fills in how a job ended when it was stopped rather than ending
// by itself: by Store.Kill (stop.json), or by its supervisor (timeout, or a
// signal to the supervisor) whose last signal sent was last. The status
// then says killed (or timeout) and names the signal, even when the main
// process had exited by itself before.
func stopped(dir string, ex *JobExit, last string) {
	if s, ok := readStop(dir); ok {
		if ex.How == JobExited {
			ex.How = JobKilled
		}
		if ex.Note == "" {
			ex.Note = "stopped by " + s.By
		}
		last = s.Signal
	}
	if ex.Signal == "" && last != "" && (ex.How == JobKilled || ex.How == JobTimedOut) {
		ex.Signal = last
	}
}
