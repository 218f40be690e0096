package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/shguard/shguard/e2e/fakemodel"
)

// runnerEnv names the spec file when the test binary runs as the runner.
const runnerEnv = "SHGUARD_E2E_RUNNER"

// runner is the test binary re-executed inside `unshare -p -f
// --mount-proc -n` (it is pid 1 there): it serves the fake model, runs
// the agent once and writes result.json. When it exits the kernel kills
// whatever is left in the namespace.
func runner(specPath string) int {
	b, err := os.ReadFile(specPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var spec Spec
	if err := json.Unmarshal(b, &spec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	res := runOnce(spec)
	out, _ := json.MarshalIndent(res, "", "  ")
	if err := os.WriteFile(filepath.Join(spec.Dir, "result.json"), out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

func runOnce(spec Spec) (res Result) {
	res.Spec = spec
	a, c := lookupAgent(spec.Agent), lookupCase(spec.Case)
	if a == nil || c == nil {
		res.Err = "unknown agent or case"
		return res
	}
	res.Version = a.Version
	fail := func(err error) Result { res.Err = err.Error(); return res }
	if err := loopbackUp(); err != nil {
		return fail(fmt.Errorf("lo up: %v", err))
	}
	r := &Run{Spec: spec, Bin: a.BinPath(), Shexec: filepath.Join(spec.Bins, "shexec")}
	r.Home, r.Project, r.Tmp = filepath.Join(spec.Dir, "home"), filepath.Join(spec.Dir, "project"), filepath.Join(spec.Dir, "tmp")
	for _, d := range []string{r.Home, r.Project, r.Tmp, filepath.Join(spec.Dir, "bin"), filepath.Join(spec.Dir, "hook")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fail(err)
		}
	}
	cmd, _ := c.For(a, spec.Mode)
	res.Command = cmd
	if err := projectFiles(r.Project); err != nil {
		return fail(err)
	}
	if err := writeWrapper(spec); err != nil {
		return fail(err)
	}
	if spec.Mode == "hook" && a.Protocol != "" {
		if out, ok := printConfig(spec.Bins, a); ok {
			r.HookConfig = out
		} else {
			res.NoHook = true
		}
	}
	r.Prompt = prompt
	res.Prompt = prompt
	r.Env = baseEnv(r, spec, a, c)
	if err := shellProfiles(r); err != nil {
		return fail(err)
	}

	probe := func() bool {
		if c.Port == 0 {
			return false
		}
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if conn, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(c.Port), time.Second); err == nil {
				conn.Close()
				return true
			}
			time.Sleep(100 * time.Millisecond)
		}
		return false
	}
	pick := a.pickTool(spec.Mode)
	srv := &fakemodel.Server{Brain: fakemodel.Shell{Command: cmd, Done: "e2e turn done", Pick: func(t fakemodel.Tool) bool { return pick(t.Name) },
		Wait: func(t fakemodel.Tool) bool { return spec.Mode == "mcp" && t.Name == a.MCPWait }}.Brain()}
	srv.OnResult = func(n int) {
		// After a refusal and a retry: as the retry left it. A program
		// just started in the agent's background mode may not show its
		// command line yet (npm's title is "npm" until it has loaded):
		// it gets the 3 s a server gets to answer.
		res.During = procs()
		for deadline := time.Now().Add(3 * time.Second); c.Proc != "" && !running(res.During, c.Proc, prompt) && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			res.During = procs()
		}
		if probe() {
			res.Served = true
		}
	}
	if err := srv.Start(); err != nil {
		return fail(err)
	}
	r.ModelURL = srv.URL
	argv, env, err := a.Setup(r)
	if err != nil {
		return fail(fmt.Errorf("setup: %v", err))
	}

	if r.HookConfig != "" {
		res.Doctor = doctor(spec, a, r, env)
	}
	stdout, _ := os.Create(filepath.Join(spec.Dir, "agent.stdout"))
	stderr, _ := os.Create(filepath.Join(spec.Dir, "agent.stderr"))
	devnull, _ := os.Open(os.DevNull)
	p := exec.Command(argv[0], argv[1:]...)
	p.Dir, p.Env = r.Project, append(r.Env, env...)
	p.Stdin, p.Stdout, p.Stderr = devnull, stdout, stderr
	p.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := p.Start(); err != nil {
		return fail(err)
	}
	// The run is killed when its first tool call has waited toolTimeout
	// for a result (it hangs), or at the hard limit (start-up included:
	// node agents take a minute to start on a loaded machine).
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if srv.Waiting() > toolTimeout || time.Since(start) > spec.Timeout {
					res.TimedOut = true
					syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
					p.Process.Kill()
					return
				}
			}
		}
	}()
	p.Wait()
	close(done)
	res.Wall = time.Since(start).Seconds()
	res.Exit = p.ProcessState.ExitCode()
	time.Sleep(500 * time.Millisecond) // what the agent stopped on its way out is gone
	reap()
	res.Left = procs()
	stdout.Close()
	stderr.Close()

	res.Hook = readHook(filepath.Join(spec.Dir, "hook"))
	res.Model = srv.Log()
	for _, e := range res.Model {
		if e.Reply != nil && e.Reply.Call != nil {
			res.Calls = append(res.Calls, *e.Reply.Call)
		}
	}
	res.Results = lastResults(res.Model, a, spec.Mode)
	classify(res.Left, res.Hook, spec.Dir, a.Daemons)
	res.Stdout = tail(filepath.Join(spec.Dir, "agent.stdout"))
	res.Stderr = tail(filepath.Join(spec.Dir, "agent.stderr"))
	return res
}

// printConfig is `shguard hook --print-config` for a's protocol; false
// when this shguard has none for it (the agent then runs without).
func printConfig(bins string, a *Agent) (string, bool) {
	if a.Protocol == "" {
		return "", false
	}
	out, err := exec.Command(filepath.Join(bins, "shguard"), "hook", "--print-config", a.Protocol).Output()
	return string(out), err == nil
}

// doctor is what `shguard hook --doctor` says of the installation, run
// as the agent will run (its environment, in the project), when this
// shguard has the flag: recorded, not judged.
func doctor(spec Spec, a *Agent, r *Run, env []string) string {
	cmd := exec.Command(filepath.Join(spec.Bins, "shguard"), "hook", "--doctor", a.Protocol)
	cmd.Dir, cmd.Env = r.Project, append(append([]string{}, r.Env...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s(%v)", out, err)
	}
	return string(out)
}

// lastResults are the tool results of the longest conversation the
// model saw (side requests carry none).
func lastResults(log []fakemodel.Entry, a *Agent, mode string) []string {
	var best []string
	for _, e := range log {
		if e.Reply == nil {
			continue
		}
		conv, ok := fakemodel.Parse(e.Path, []byte(e.Body))
		if ok && len(conv.Results) > len(best) {
			best = conv.Results
		}
	}
	return best
}

// reap collects the orphans that came to the runner (pid 1) and died.
func reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 8000 {
		b = append([]byte("…"), b[len(b)-8000:]...)
	}
	return string(b)
}

// baseEnv is the environment every agent starts from: nothing of the
// test's own, fresh HOME/TMPDIR/XDG dirs, PATH with the shguard wrapper,
// shexec and the agent first.
func baseEnv(r *Run, spec Spec, a *Agent, c *Case) []string {
	node, _ := exec.LookPath("node")
	path := []string{filepath.Join(spec.Dir, "bin"), filepath.Dir(r.Bin)}
	if node != "" {
		path = append(path, filepath.Dir(node))
	}
	path = append(path, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
	shell := "/bin/bash"
	if c.UserShell != "" {
		shell = c.UserShell
	}
	return []string{
		"HOME=" + r.Home, "TMPDIR=" + r.Tmp, "USER=root", "LOGNAME=root",
		"XDG_CONFIG_HOME=" + filepath.Join(r.Home, ".config"), "XDG_DATA_HOME=" + filepath.Join(r.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(r.Home, ".local", "state"), "XDG_CACHE_HOME=" + filepath.Join(r.Home, ".cache"),
		"PATH=" + strings.Join(path, ":"), "SHELL=" + shell, "LANG=C.UTF-8", "TERM=dumb",
		"NO_UPDATE_NOTIFIER=1", "NO_COLOR=1",
	}
}

// shellProfiles give login shells the run's PATH, as a user's profile
// does for what they installed (go install puts shguard and shexec in
// ~/go/bin): Codex runs commands with `bash -lc`, and Debian's
// /etc/profile sets PATH afresh.
func shellProfiles(r *Run) error {
	var path string
	for _, e := range r.Env {
		if v, ok := strings.CutPrefix(e, "PATH="); ok {
			path = v
		}
	}
	line := "export PATH=" + shquote(path) + "\n"
	for _, f := range []string{".profile", ".bashrc", ".zshenv"} {
		if err := r.Write(filepath.Join(r.Home, f), line, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeWrapper puts bin/shguard first on PATH: it records each call's
// arguments, input, answer and exit status under hook/, then runs the
// real shguard with the same input, so the configuration the agent reads
// stays exactly the printed one. shexec and shexec-mcp are linked in too.
func writeWrapper(spec Spec) error {
	bin := filepath.Join(spec.Dir, "bin")
	for _, p := range []string{"shexec", "shexec-mcp"} {
		if err := os.Symlink(filepath.Join(spec.Bins, p), filepath.Join(bin, p)); err != nil {
			return err
		}
	}
	script := `#!/bin/bash
# e2e: record the hook's input and answer, run the real shguard on them.
n=` + shquote(filepath.Join(spec.Dir, "hook")) + `/$(date +%s%N)-$$
printf '%s\n' "$*" > "$n.args"
cat > "$n.in"
` + shquote(filepath.Join(spec.Bins, "shguard")) + ` "$@" < "$n.in" > "$n.out" 2> "$n.err"
rc=$?
echo $rc > "$n.rc"
cat "$n.out"
cat "$n.err" >&2
exit $rc
`
	return os.WriteFile(filepath.Join(bin, "shguard"), []byte(script), 0o755)
}

// shquote quotes s for the shell.
func shquote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func readHook(dir string) []HookCall {
	ins, _ := filepath.Glob(filepath.Join(dir, "*.in"))
	sort.Strings(ins)
	var hs []HookCall
	for _, in := range ins {
		base := strings.TrimSuffix(in, ".in")
		read := func(ext string) string { b, _ := os.ReadFile(base + ext); return string(b) }
		at, _ := strconv.ParseInt(strings.SplitN(filepath.Base(base), "-", 2)[0], 10, 64)
		hs = append(hs, HookCall{Args: strings.TrimSpace(read(".args")), Input: read(".in"), Output: read(".out"),
			Stderr: read(".err"), Exit: strings.TrimSpace(read(".rc")), At: at})
	}
	return hs
}

var pathRe = regexp.MustCompile(`/[A-Za-z0-9._/+=:,@%-]+`)

// classify says who manages each leftover: the agent itself (its own
// daemons), a shexec job (the process or its group is a job's, or it
// descends from a shexec process), or a pid recorded in a file the hook's
// answer names — with its process tree or group when the answer's stop
// command kills that. Anything else is unmanaged.
func classify(left []Proc, hooks []HookCall, dir string, daemons []string) {
	jobs := map[int]bool{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "meta.json" {
			var m struct{ PID, PGID int }
			if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &m) == nil {
				jobs[m.PID], jobs[m.PGID] = true, true
			}
		}
		return nil
	})
	recorded := map[int]string{}
	// tree: the answer's stop command kills the recorded pid's process
	// tree (hook.stopJob), so a descendant of a recorded pid is reached
	// too; group: it kills the recorded pid's process group (setsid job).
	tree, group := false, false
	for _, h := range hooks {
		tree = tree || strings.Contains(h.Output, "pgrep -P")
		group = group || strings.Contains(h.Output, "kill -- -$(cat ")
		for _, f := range pathRe.FindAllString(h.Output, -1) {
			b, err := os.ReadFile(f)
			if err != nil || len(b) > 1<<16 {
				continue
			}
			for _, w := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(w); err == nil {
					recorded[n] = f
				}
			}
		}
	}
	byPid := map[int]Proc{}
	for _, p := range left {
		byPid[p.Pid] = p
	}
	for i := range left {
		p := &left[i]
		for _, d := range daemons {
			if strings.Contains(p.Cmd, d) {
				p.Managed = "agent's own"
			}
		}
		if p.Managed != "" {
			continue
		}
		if f, ok := recorded[p.Pid]; ok {
			p.Managed = "recorded pid in " + f
			continue
		}
		if f, ok := recorded[p.Pgid]; ok && group {
			p.Managed = "process group of the recorded pid in " + f
			continue
		}
		for q, ok := byPid[p.PPid]; ok && tree; q, ok = byPid[q.PPid] {
			if f, ok := recorded[q.Pid]; ok {
				p.Managed = "process tree of the recorded pid in " + f
				break
			}
			if q.PPid == q.Pid {
				break
			}
		}
		if p.Managed != "" {
			continue
		}
		for q, ok := *p, true; ok; q, ok = byPid[q.PPid] {
			if jobs[q.Pid] || jobs[q.Pgid] || strings.Contains(strings.SplitN(q.Cmd, " ", 2)[0], "shexec") {
				p.Managed = "shexec job"
				break
			}
			if q.PPid == q.Pid {
				break
			}
		}
	}
}
