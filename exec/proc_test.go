//go:build linux

package exec

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReadStatSelf(t *testing.T) {
	p, err := readStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if p.ppid != os.Getppid() || p.pgid != unix.Getpgrp() || p.start == 0 || p.dead() {
		t.Errorf("readStat(self) = %+v", p)
	}
	if _, err := readStat(1 << 30); err == nil {
		t.Error("readStat of a pid that cannot exist succeeded")
	}
}

// TestPipeHolders: this process holds both ends of a fresh pipe, and is
// the only one that does.
func TestPipeHolders(t *testing.T) {
	if !haveHolderScan {
		t.Skip("portable: no holder scan (macOS cannot list which processes hold a pipe); shexec owns the output pipes and stops copying when the shell is done instead")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ino := pipeInode(int(r.Fd()))
	if ino == 0 || ino != pipeInode(int(w.Fd())) {
		t.Fatalf("inodes %d and %d", ino, pipeInode(int(w.Fd())))
	}
	if !holdsPipe(os.Getpid(), []uint64{ino}) {
		t.Error("this process does not show as a holder")
	}
	if holdsPipe(os.Getppid(), []uint64{ino}) {
		t.Error("the parent shows as a holder")
	}
	f, _ := os.CreateTemp(t.TempDir(), "x")
	defer f.Close()
	if pipeInode(int(f.Fd())) != 0 {
		t.Error("a regular file has a pipe inode")
	}
}

// TestHandleRefusesRecycledPid: a handle is only opened on the process that
// was looked at; a stale start time means another process has the pid.
func TestHandleRefusesRecycledPid(t *testing.T) {
	self, err := readStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	h, err := openHandle(self)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	if h.exited() {
		t.Error("a live process reads as exited")
	}
	if err := h.signal(0); err != nil {
		t.Errorf("signal 0 through the handle: %v", err)
	}
	stale := self
	stale.start--
	if h, err := openHandle(stale); err == nil {
		h.close()
		t.Error("opened a handle on a process with another start time")
	}
}

func TestDescendantsWalkMatchesScan(t *testing.T) {
	// Both walks must agree on the test process's parent's subtree (which
	// contains at least this process).
	parent := os.Getppid()
	a, b := map[int]bool{}, map[int]bool{}
	for _, p := range descendants(parent, nil) {
		a[p.pid] = true
	}
	for _, p := range descendantsByScan(parent, nil) {
		b[p.pid] = true
	}
	if !a[os.Getpid()] || !b[os.Getpid()] {
		t.Fatalf("this process is missing from its parent's descendants: walk %v, scan %v", a, b)
	}
}
