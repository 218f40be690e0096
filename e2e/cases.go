package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Kind is what a case's command is, and so what ending correctly means.
type Kind int

const (
	// Clean: runs unchanged; nothing may be left.
	Clean Kind = iota
	// LeakOnly: cannot hang, leaves a process the command meant to leave
	// (nohup … &): runs unchanged, the advice reaches the model.
	LeakOnly
	// Risky: would hang the tool or leave an unmanaged process: it must
	// run made safe — its work done, no hang, anything left running
	// managed and named.
	Risky
)

// Case is one row of the table: a command the model asks the agent to
// run, and the evidence that its work was done.
type Case struct {
	Name    string
	Command string
	Kind    Kind
	// Marker must appear in a tool result: the command's foreground work
	// ran and its output reached the model ("" none).
	Marker string
	// Port must answer while the agent still runs: the server the
	// command starts did start (0 none).
	Port int
	// Proc must be part of a running process's command line when the
	// (last) tool result comes back: the never-ending command started
	// and is still running ("" none).
	Proc string
	// UserShell is the user's $SHELL for the run ("" bash); ByShell gives
	// the command and marker for the shell the agent then runs (its
	// Agent.Shell), written in that shell's own syntax.
	UserShell string
	ByShell   map[string][2]string
	// Means says what ending correctly is, for the docs.
	Means string
}

// cases are the rows. Ports are fixed: each run has its own network
// namespace.
var cases = []Case{
	{Name: "clean", Command: "printf 'e2e-clean-%d\\n' 42", Kind: Clean, Marker: "e2e-clean-42",
		Means: "runs unchanged, its output reaches the model, nothing left"},
	{Name: "bg-server", Command: "python3 -m http.server 8765 &", Kind: Risky, Port: 8765,
		Means: "the tool returns, the server serves during the turn, and is managed (or gone) after"},
	{Name: "mid-job", Command: "python3 -m http.server 8766 & sleep 1; curl -s --retry 20 --retry-connrefused --retry-delay 1 -o /dev/null -w 'e2e-mid-%{http_code}\\n' http://127.0.0.1:8766/", Kind: Risky, Marker: "e2e-mid-200",
		Means: "the curl after the job gets its answer (the server served) and its output reaches the model; the server is managed (or gone: Codex stops the tool's process group) after"},
	{Name: "nested", Command: `bash -c "python3 -m http.server 8767 & sleep 1; printf 'e2e-nested-%s\\n' up"`, Kind: Risky, Port: 8767, Marker: "e2e-nested-up",
		Means: "a job inside a bash -c string: the output after it reaches the model, the server answers when the tool has returned, and is managed after"},
	{Name: "leak-only", Command: "nohup python3 -m http.server 8768 >/dev/null 2>&1 & printf 'e2e-leak-%s\\n' started", Kind: LeakOnly, Marker: "e2e-leak-started",
		Means: "runs unchanged (the user asked for a detached server; whether it survives is the agent's business: Codex kills the tool's process group); the advice reaches the model where the agent has a channel"},
	{Name: "fg-server", Command: "python3 -m http.server 8769", Kind: Risky, Port: 8769,
		Means: "does not hang: the server serves during the turn, the tool returns, and it is managed (or gone) after"},
	{Name: "log-follow", Command: "tail -f app.log", Kind: Risky, Proc: "tail -f app.log",
		Means: "does not hang; the follower runs when the tool returns and is managed (or gone) after"},
	{Name: "watcher", Command: "npm run watch", Kind: Risky, Proc: "npm run watch",
		Means: "a watch script in the foreground: does not hang; it runs when the tool returns and is managed (or gone) after"},
	{Name: "own-shell", Kind: Risky, Port: 8770, UserShell: "/usr/bin/zsh",
		ByShell: map[string][2]string{
			"zsh":  {"python3 -m http.server 8770 &! sleep 1; echo e2e-own-$ZSH_NAME", "e2e-own-zsh"},
			"bash": {"python3 -m http.server 8770 |& cat & sleep 1; echo e2e-own-${BASH##*/}", "e2e-own-bash"},
		},
		Means: "the user's shell is zsh: a job in the syntax of the shell the agent runs (zsh `&!` where the agent honours $SHELL, else bash `|&`): the output after it reaches the model, the server answers when the tool has returned, and is managed after"},
}

func lookupCase(name string) *Case {
	for i := range cases {
		if cases[i].Name == name {
			return &cases[i]
		}
	}
	return nil
}

// For is the command and marker for agent a in mode: the agent's shell
// runs it in mode hook, shexec's run tool (bash) in mode mcp.
func (c *Case) For(a *Agent, mode string) (cmd, marker string) {
	if c.ByShell != nil {
		sh := a.Shell
		if sh == "" || mode == "mcp" {
			sh = "bash"
		}
		v := c.ByShell[sh]
		return v[0], v[1]
	}
	return c.Command, c.Marker
}

// projectFiles lays out what the cases use: a log to follow and an npm
// watch script (a watcher that never ends, as `tsc --watch` or
// `nodemon` would be, without installing one); a git repository, which
// some agents want.
func projectFiles(dir string) error {
	files := map[string]string{
		"app.log":      "e2e-log-line\n",
		"package.json": `{"name": "e2e", "version": "1.0.0", "private": true, "scripts": {"watch": "node watch.js"}}` + "\n",
		"watch.js":     "// Rebuilds on every change, for ever.\nconst fs = require('fs');\nconsole.log('e2e-watching');\nfs.watch('.', () => console.log('e2e-rebuilt'));\nsetInterval(() => {}, 1000);\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return exec.Command("git", "init", "-q", dir).Run()
}
