//go:build linux

package main

import (
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"time"

	"github.com/shguard/shguard/exec"
)

// escapes are ways for a command to leave processes behind: in the
// background, out of the process group, out of the session, out of the job
// table, re-parented by double and triple forks, ignoring SIGTERM, forking
// in the SIGTERM handler, stopped, respawning, making zombies. @M is the
// marker (a sleep duration) that lets the test count survivors exactly.
var escapes = []string{
	`sleep @M &`,
	`sleep @M & disown`,
	`nohup sleep @M &`,
	`nohup sleep @M >/dev/null 2>&1 &`,
	`nohup setsid sleep @M &`,
	`setsid sleep @M &`,
	`setsid -f sleep @M`,
	`(sleep @M &)`,
	`( (sleep @M &) & )`,
	`(setsid sleep @M <&- >&- 2>&- &)`,
	`bash -c 'sleep @M & sleep @M' &`,
	`sh -c 'sleep @M &' &`,
	`set -m; sleep @M &`,
	`set -m; (sleep @M; sleep @M) &`,
	`(trap '' TERM; sleep @M) &`,
	`(trap '' TERM; sleep @M & sleep @M & wait) &`,
	`setsid bash -c "trap '' TERM; sleep @M & wait" &`,
	`bash -c 'trap "sleep @M &" TERM; while :; do sleep 0.05; done' &`,
	`bash -c 'trap "setsid sleep @M &" TERM; while :; do sleep 0.05; done' &`,
	`perl -e '$SIG{TERM}="IGNORE"; for (1..3) { exit 0 unless fork } sleep @M' &`,
	`bash -c 'while :; do sleep @M; done' &`,
	`sleep @M & kill -STOP $!`,
	`coproc sleep @M`,
	`sleep @M | sleep @M &`,
	`x=$(sleep @M >/dev/null &)`,
	`timeout 99999 sleep @M &`,
	`env -i /bin/sleep @M &`,
	`exec 3>&1; sleep @M >&3 &`,
}

// TestTortureTimeout: each escape, then a foreground sleep that outlasts
// the timeout. Everything must be gone when shexec returns.
func TestTortureTimeout(t *testing.T) {
	t.Parallel()
	for _, e := range escapes {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			script := strings.ReplaceAll(e, "@M", m) + "\nsleep " + m
			got := shexec(t, "", "--timeout", "0.5", "--grace", "0.3", "--leftovers", "kill", "-c", script)
			if got.code != 124 || !strings.Contains(got.stderr, "timed out after 500ms") {
				t.Errorf("exit %d, stderr %q", got.code, got.stderr)
			}
			if got.elapsed > 5*time.Second {
				t.Errorf("took %v", got.elapsed)
			}
			assertNoSurvivors(t, m)
		})
	}
}

// TestTortureLeftovers: each escape as the whole command. The shell exits
// at once; shexec must return promptly and stop everything it left.
func TestTortureLeftovers(t *testing.T) {
	t.Parallel()
	for _, e := range escapes {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			got := shexec(t, "", "--grace", "0.3", "--leftovers", "kill", "-c", strings.ReplaceAll(e, "@M", m))
			// Quiet: with --leftovers kill nothing goes on in a job, so
			// shexec has nothing to say (the leftovers may: bash's
			// "Terminated"); that they were found is shown by none
			// surviving.
			if got.code != 0 || strings.Contains(got.stderr, "shexec") {
				t.Errorf("exit %d, stderr %q", got.code, got.stderr)
			}
			if got.elapsed > 5*time.Second {
				t.Errorf("took %v", got.elapsed)
			}
			assertNoSurvivors(t, m)
		})
	}
}

// TestTortureKill9: each escape, then a foreground sleep; shexec gets
// SIGKILL while it runs (as under Python's subprocess timeout or the OOM
// killer). Its watchdog must leave nothing of the run within a second.
func TestTortureKill9(t *testing.T) {
	t.Parallel()
	for _, e := range escapes {
		t.Run(e, func(t *testing.T) {
			t.Parallel()
			m := marker(t)
			script := strings.ReplaceAll(e, "@M", m) + "\nsleep " + m
			cmd := osexec.Command(shexecBin, "--leftovers", "kill", "-c", script)
			cmd.Env = append(os.Environ(), "SHEXEC_HOME="+t.TempDir(), "SHEXEC_PROMOTE=0")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			// Long enough for the watchdog to start and read the tree.
			time.Sleep(exec.WatchdogDelay + 4*exec.WatchdogPoll)
			if len(survivors(m)) == 0 {
				t.Fatal("the escape did not start")
			}
			cmd.Process.Kill()
			deadline := time.Now().Add(1500 * time.Millisecond)
			for len(survivors(m)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			assertNoSurvivors(t, m)
		})
	}
}
