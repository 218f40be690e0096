//go:build unix

package hook

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/corpus"
)

// A job redirected in the middle of a command, whatever its shape, under
// each shell: the rewritten command returns at once, the rest of it still
// runs and prints, $? after it is unchanged, and the stop command the
// answer gives ends every process the job started (a pipeline's parts, a
// subshell's children, zsh's disowned &!), not only the pid in $!.
// Every shape is redirected in place under every shell (a shape moved
// into a managed job instead would fail here: that job's $? is the
// wrapper's, and its recorded pid, the inner shell, has exited by the
// time the job's processes run on, so the stop command misses them).
//
// Each shape runs as the caller's command (plain), and as Codex runs it
// (group-killed: in a process group that is killed once the command
// returned), with setsid on PATH and without: the job must outlive that
// kill wherever the hook can give it a group of its own (grouping.how),
// and its stop command still ends all of it.
func TestRedirectedJobStops(t *testing.T) {
	type shape struct{ name, job, sep string }
	shapes := []shape{
		{"simple", "tail -f SEEN", "&"},
		{"pipeline", "tail -f SEEN | cat", "&"},
		{"and-or", "true && tail -f SEEN | cat", "&"},
		{"subshell", "( tail -f SEEN | cat )", "&"},
		{"group", "{ tail -f SEEN | cat; }", "&"},
	}
	byShell := map[string][]shape{
		"bash": {{"stderr-pipe", "tail -f SEEN |& cat", "&"}},
		"zsh":  {{"disown", "tail -f SEEN", "&!"}, {"disown-pipe", "tail -f SEEN |& cat", "&|"}},
	}
	setsid, _ := exec.LookPath("setsid")
	modes := []struct {
		name        string
		groupKilled bool
		find        func(string) string
	}{
		{"plain", false, nil},
		{"group-killed", true, func(p string) string { return map[string]string{"setsid": setsid}[p] }},
		{"group-killed-no-setsid", true, nil},
	}
	// The shells start with fds 0-2 only, as under an agent tool: with
	// fd 10 inherited (from a terminal, a test runner), mksh keeps the
	// copy its exec saves elsewhere and closes it, and a rewrite that
	// hangs an agent's caller would pass here (see execOpen).
	corpus.Uninherit()
	for _, sh := range []string{"bash", "zsh", "dash", "mksh"} {
		if _, err := exec.LookPath(sh); err != nil {
			continue
		}
		lang, _ := analyze.ParseLang(sh)
		for _, s := range append(append([]shape{}, shapes...), byShell[sh]...) {
			for _, m := range modes {
				t.Run(sh+"/"+s.name+"/"+m.name, func(t *testing.T) {
					t.Parallel() // each follows a file of its own
					if m.find != nil && setsid == "" {
						t.Skip("no setsid on PATH")
					}
					opt := Options{Lang: lang, GroupKilled: m.groupKilled, Find: m.find}
					runRedirected(t, sh, s.job, s.sep, opt)
				})
			}
		}
	}
}

// runRedirected runs job (SEEN: a file it follows) followed by sep and a
// rest, as the hook rewrites it with opt, and checks what
// TestRedirectedJobStops promises.
func runRedirected(t *testing.T, sh, job, sep string, opt Options) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen")
	os.WriteFile(seen, []byte("first line\n"), 0o644)
	follower := "tail -f " + seen
	t.Cleanup(func() { exec.Command("pkill", "-9", "-f", follower).Run() })
	cmd := strings.ReplaceAll(job, "SEEN", seen) + " " + sep + " sleep 0.2; echo rest-ran; false"
	opt.LogFile = func(n int) string { return filepath.Join(dir, fmt.Sprintf("job%d.log", n)) }
	out, err := Decide(cmd, opt)
	if err != nil || !out.Changed || len(out.Logs) != 1 {
		t.Fatalf("Decide(%q) = %+v, %v; want a redirected job", cmd, out, err)
	}
	start := time.Now()
	c := exec.Command(sh, "-c", out.Command)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a group of its own, as Codex's tool
	c.WaitDelay = 5 * time.Second                       // a held pipe: fail, do not hang
	b, err := c.CombinedOutput()
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("%q held the caller for %v", out.Command, d)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || strings.TrimSpace(string(b)) != "rest-ran" {
		t.Errorf("%s -c %q -> %q, %v; want rest-ran and exit 1 (the status of the rest)", sh, out.Command, b, err)
	}
	if opt.GroupKilled {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	time.Sleep(300 * time.Millisecond)
	running := exec.Command("pgrep", "-f", follower).Run() == nil
	switch {
	case !opt.GroupKilled && !running:
		t.Fatalf("%q: the job is not running", out.Command)
	case opt.GroupKilled && running != ownGroup(t, sh, out.Command, opt):
		t.Fatalf("%q: after the tool's group was killed the job runs: %v; want %v", out.Command, running, !running)
	case !running:
		return // the group kill ended it, as without the hook
	}
	stop := out.Stops[0]
	if !strings.Contains(out.Context, stop) {
		t.Errorf("the context does not give the stop command %q: %s", stop, out.Context)
	}
	if b, err := exec.Command(sh, "-c", stop).CombinedOutput(); err != nil {
		t.Errorf("%s: %s: %v %s", sh, stop, err, b)
	}
	time.Sleep(300 * time.Millisecond)
	if b, err := exec.Command("pgrep", "-a", "-f", follower).Output(); err == nil {
		t.Errorf("%q: left after its stop command: %s", out.Command, b)
	}
}

// ownGroup says whether the rewrite gave the job a group of its own, as
// group.go promises: setsid before a lone program, else job control
// in bash and mksh.
func ownGroup(t *testing.T, sh, rewritten string, opt Options) bool {
	switch {
	case opt.Find != nil && strings.Contains(rewritten, opt.Find("setsid")+" "):
		return true
	case strings.Contains(rewritten, "set -m;"):
		if sh != "bash" && sh != "mksh" {
			t.Errorf("set -m used in %s: %q", sh, rewritten)
		}
		return true
	}
	if sh == "bash" || sh == "mksh" || opt.Find != nil && !strings.ContainsAny(rewritten, "|({") {
		t.Errorf("%s: no group of its own for %q", sh, rewritten)
	}
	return false
}
