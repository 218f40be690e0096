//go:build linux || darwin || freebsd

package exec

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

// killPatience bounds the SIGKILL phase. SIGKILL cannot be ignored, but a
// process in uninterruptible sleep (a hung NFS read) dies only when the
// kernel lets it; Run reports it rather than hang.
const killPatience = 5 * time.Second

// terminate stops every live descendant of the caller and returns what it
// signalled.
//
// SIGTERM first (followed by SIGCONT, or a stopped process would sit on
// it), so that programs can clean up: to the shell's process group
// (one atomic kill(2) that also catches a member forking at that instant)
// and, through pidfds, to every descendant that left the group (setsid,
// set -m, double forks re-parented to us). During the grace period the tree
// is scanned again and again, so that processes born meanwhile (a SIGTERM
// handler that forks, a parent that respawns) get their SIGTERM too; it ends
// early as soon as nothing is alive. Then SIGKILL, repeated until no
// descendant is left.
func (r *run) terminate(grace time.Duration) []Stopped {
	type sent struct {
		h   *handle
		sig syscall.Signal
	}
	var order []*sent
	byKey := map[procKey]*sent{}
	note := func(p procInfo, sig syscall.Signal, deliver bool) {
		s := byKey[p.key()]
		if s == nil {
			h := r.handleFor(p)
			if h == nil {
				return // gone already
			}
			s = &sent{h: h}
			byKey[p.key()] = s
			order = append(order, s)
		}
		if s.sig == sig || s.sig == syscall.SIGKILL {
			return // already sent, or already past it
		}
		if !deliver || s.h.signal(sig) == nil {
			s.sig = sig
			if deliver && sig == syscall.SIGTERM {
				// A stopped process would keep SIGTERM pending
				// until the grace period is over.
				s.h.signal(syscall.SIGCONT)
			}
		}
	}

	pause := func(p time.Duration) time.Duration {
		if r.shellGone() {
			// Nobody else reaps now; collect the zombies of what died.
			reapOrphans()
		}
		time.Sleep(p)
		return max(min(2*p, 20*time.Millisecond), time.Millisecond)
	}

	live := r.live()
	for _, p := range live {
		r.handleFor(p) // pin them and read their argv while they still have one
	}
	group := r.signalGroup(syscall.SIGTERM)
	r.signalGroup(syscall.SIGCONT)
	for _, p := range live {
		// Members of the group got it from the group kill.
		note(p, syscall.SIGTERM, !group || p.pgid != r.shellPid)
	}
	deadline := time.Now().Add(grace)
	step := time.Millisecond
	for len(live) > 0 && time.Now().Before(deadline) {
		step = pause(min(step, time.Until(deadline)))
		live = r.live()
		for _, p := range live {
			note(p, syscall.SIGTERM, true)
		}
	}
	giveUp := time.Now().Add(killPatience)
	for len(live) > 0 && time.Now().Before(giveUp) {
		r.signalGroup(syscall.SIGKILL)
		for _, p := range live {
			note(p, syscall.SIGKILL, true)
		}
		step = pause(step)
		live = r.live()
	}
	if r.shellGone() {
		reapOrphans()
	}

	var out []Stopped
	for _, s := range order {
		if s.sig == 0 {
			continue
		}
		name := "SIGTERM"
		if s.sig == syscall.SIGKILL {
			name = "SIGKILL"
		}
		out = append(out, Stopped{PID: s.h.info.pid, Command: s.h.cmd, Signal: name})
	}
	return out
}

// live returns the run's processes (see runProcs) that have not exited.
func (r *run) live() []procInfo {
	all := r.runProcs()
	out := all[:0]
	for _, p := range all {
		if !p.dead() {
			out = append(out, p)
		}
	}
	return out
}

// handleFor returns a pinned handle on p, opening it on first use.
func (r *run) handleFor(p procInfo) *handle {
	if h := r.handles[p.key()]; h != nil {
		return h
	}
	h, err := openHandle(p)
	if err != nil {
		return nil
	}
	h.cmd = cmdline(p)
	r.handles[p.key()] = h
	return h
}

// describeStopped is the one-line account of a termination: how many
// processes went with SIGTERM, and which needed SIGKILL.
func describeStopped(st []Stopped) string {
	if len(st) == 0 {
		return "no process was left to stop"
	}
	var termed, killed []string
	for _, s := range st {
		d := fmt.Sprintf("%s (pid %d)", shortCommand(s.Command), s.PID)
		if s.Signal == "SIGKILL" {
			killed = append(killed, d)
		} else {
			termed = append(termed, d)
		}
	}
	var parts []string
	if len(termed) > 0 {
		parts = append(parts, fmt.Sprintf("stopped %s with SIGTERM: %s", plural(len(termed), "process", "processes"), listUpTo(termed, 5)))
	}
	if len(killed) > 0 {
		parts = append(parts, fmt.Sprintf("killed %s with SIGKILL: %s", plural(len(killed), "process", "processes"), listUpTo(killed, 5)))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func listUpTo(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

func shortCommand(c string) string {
	const max = 40
	if len(c) > max {
		return c[:max] + "..."
	}
	return c
}
