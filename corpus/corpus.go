// Package corpus is a collection of real-shaped agent shell commands, each
// with the verdict its shell itself gives it: error (the caller never gets EOF,
// or the shell blocks), warning (nothing hangs, but something outlives the
// shell) or clean.
//
// Every entry carries the command as an agent writes it (Cmd) and,
// where that command needs programs this machine does not have (npm,
// docker, kubectl, ssh…), a stand-in (Run) with the same shell shape, in
// which long-running programs are `sleep N` with a distinct N and one-shot
// tools are short commands. The corpus tests run every stand-in under real
// bash with Observe and check the verdict, and run the analyzer on Cmd and
// Run and check that it agrees. Other packages (rewrite tests, fuzz seeds,
// benchmarks) read the entries through Load.
//
// The entries live in entries.txt, embedded at build time; the format is
// described in that file's header.
package corpus

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
)

// Verdict is what running a command does to its caller.
type Verdict string

const (
	// Error: the caller would not get EOF when the shell exits (something
	// still holds its stdout or stderr), or the shell itself blocks.
	Error Verdict = "error"
	// Warning: nothing hangs, but a process started by the command outlives
	// the shell.
	Warning Verdict = "warning"
	// Clean: neither.
	Clean Verdict = "clean"
)

// Entry is one command of the corpus.
type Entry struct {
	ID       string   // unique, kebab-case
	Shell    string   // the shell that runs it: bash (the default), zsh, dash or mksh
	Caller   Caller   // how the shell is started (default CallerInGroup)
	Category string   // devserver, watcher, build, test, remote, wait, quoting, …
	Cmd      string   // the command as an agent writes it
	Run      string   // runnable stand-in with the same shape; "" means Cmd runs as is
	Verdict  Verdict  // what bash does (checked by the runtime test)
	Rules    []string // rule IDs the analyzer reports, info rules included, sorted
	Note     string   // why the verdict is what it is
	// Endless: the shell's foreground never ends (`ends: never`): a loop
	// dash never leaves, a follower, a wait for a server. TestShells
	// checks that the shell is still running when Observe gives up on it;
	// Verdict is then the analyzer's for the rest (a foreground that never
	// ends holds the tool call until its timeout: SG3001's advice).
	Endless bool
	Line    int // line of the entry's header in entries.txt
}

// Caller says how an entry's shell is started, which decides what a
// foreground setsid does (see analyze.Caller).
type Caller string

const (
	// CallerInGroup: a plain fork and exec, in the caller's process group
	// (Python's subprocess, make, a script's $(…)).
	CallerInGroup Caller = "group"
	// CallerLeader: the shell leads its own process group, as agent tools
	// and shexec start it.
	CallerLeader Caller = "leader"
)

// Options are the Observe options that run the entry as its record says.
func (e Entry) Options() Options {
	return Options{Shell: e.Shell, Leader: e.Caller == CallerLeader}
}

// Script returns what to run for the entry: Run, or Cmd when it has none.
func (e Entry) Script() string {
	if e.Run != "" {
		return e.Run
	}
	return e.Cmd
}

//go:embed entries.txt
var entriesTxt string

// Load returns the entries, in file order. It panics if the embedded file
// is malformed, which the package's own tests rule out.
func Load() []Entry {
	es, err := Parse(entriesTxt)
	if err != nil {
		panic("corpus: " + err.Error())
	}
	return es
}

// Parse reads entries in the format of entries.txt:
//
//	=== id
//	shell: zsh              (optional, default bash)
//	caller: leader          (optional, default group)
//	category: devserver
//	verdict: error
//	rules: SG1001 SG3001
//	note: one line of explanation
//	ends: never             (optional: the foreground never ends)
//	cmd: npm run dev &
//	run: sleep 31 &
//
// A cmd or run that spans lines is written as `cmd:` alone on its line,
// followed by the lines of the command each prefixed with "| " (or a bare
// "|" for an empty line); the prefix keeps tabs and leading spaces, which
// here-documents care about, byte for byte. Lines starting with "#"
// between fields are comments. rules may be empty (`rules:` or `rules: -`).
func Parse(text string) ([]Entry, error) {
	var es []Entry
	var cur *Entry
	block := "" // field being continued by "| " lines
	var buf []string
	flush := func() {
		if block == "" || cur == nil {
			return
		}
		v := strings.Join(buf, "\n")
		if block == "cmd" {
			cur.Cmd = v
		} else {
			cur.Run = v
		}
		block, buf = "", nil
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		n := i + 1
		if block != "" {
			if line == "|" || strings.HasPrefix(line, "| ") {
				buf = append(buf, strings.TrimPrefix(strings.TrimPrefix(line, "|"), " "))
				continue
			}
			flush()
		}
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "=== "):
			es = append(es, Entry{ID: strings.TrimSpace(line[4:]), Line: n})
			cur = &es[len(es)-1]
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: field before the first \"=== id\" header", n)
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("line %d: want \"key: value\", got %q", n, line)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "category":
			cur.Category = val
		case "shell":
			switch val {
			case "bash", "zsh", "dash", "mksh":
			default:
				return nil, fmt.Errorf("line %d: shell %q is not bash, zsh, dash or mksh", n, val)
			}
			cur.Shell = val
		case "caller":
			if v := Caller(val); v != CallerInGroup && v != CallerLeader {
				return nil, fmt.Errorf("line %d: caller %q is not group or leader", n, val)
			}
			cur.Caller = Caller(val)
		case "verdict":
			v := Verdict(val)
			if v != Error && v != Warning && v != Clean {
				return nil, fmt.Errorf("line %d: verdict %q is not error, warning or clean", n, val)
			}
			cur.Verdict = v
		case "rules":
			if val != "-" {
				cur.Rules = strings.Fields(val)
				sort.Strings(cur.Rules)
			}
		case "note":
			cur.Note = val
		case "ends":
			if val != "never" {
				return nil, fmt.Errorf("line %d: ends %q is not never", n, val)
			}
			cur.Endless = true
		case "cmd", "run":
			if val == "" {
				block = key
				continue
			}
			if key == "cmd" {
				cur.Cmd = val
			} else {
				cur.Run = val
			}
		default:
			return nil, fmt.Errorf("line %d: unknown field %q", n, key)
		}
	}
	flush()
	for i := range es {
		if es[i].Shell == "" {
			es[i].Shell = "bash"
		}
		if es[i].Caller == "" {
			es[i].Caller = CallerInGroup
		}
	}
	for _, e := range es {
		if e.ID == "" || e.Cmd == "" || e.Verdict == "" || e.Category == "" {
			return nil, fmt.Errorf("line %d: entry %q needs an id, a category, a cmd and a verdict", e.Line, e.ID)
		}
	}
	return es, nil
}
