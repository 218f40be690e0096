package dialect

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// Lang is the shell that will run the source: it decides both how the
// source is parsed and how the walk models what that shell does with
// processes and descriptors (see dialect).
type Lang int

const (
	LangBash  Lang = iota // bash (the default)
	LangPOSIX             // sh: POSIX syntax, run by whatever /bin/sh is here (dash on Debian, Ubuntu, Alpine; bash on macOS, Fedora)
	LangMksh              // mksh, the MirBSD Korn shell (also "ksh")
	LangZsh               // zsh
	LangDash              // dash (and busybox ash) by name
)

// ParseLang reads a shell name: bash, sh (or posix), dash (or ash), zsh,
// mksh (or ksh). A path or a versioned name works too (/bin/zsh,
// zsh-5.9), as in $SHELL.
func ParseLang(s string) (Lang, error) {
	if s == "" {
		return LangBash, nil
	}
	if l, ok := LangFromPath(s); ok {
		return l, nil
	}
	return 0, fmt.Errorf("unknown shell %q (want bash, zsh, dash, sh, mksh or ksh)", s)
}

// LangFromPath maps the path or name of a shell program, as $SHELL,
// CLAUDE_CODE_SHELL or a shebang give it, to its Lang: /usr/bin/zsh,
// /bin/sh, /opt/homebrew/bin/bash, zsh-5.9, -zsh (a login shell's argv[0]).
func LangFromPath(path string) (Lang, bool) {
	name := strings.ToLower(filepath.Base(strings.TrimSpace(path)))
	name = strings.TrimPrefix(name, "-")
	name = strings.TrimSuffix(name, ".exe")
	if i := strings.IndexAny(name, "-0123456789."); i > 0 {
		name = name[:i] // zsh-5.9, bash5, mksh-R59
	}
	switch name {
	case "bash", "rbash":
		return LangBash, true
	case "sh", "posix":
		return LangPOSIX, true
	case "dash", "ash", "busybox":
		return LangDash, true
	case "zsh", "rzsh":
		return LangZsh, true
	case "mksh", "ksh", "lksh", "pdksh", "oksh":
		return LangMksh, true
	}
	return 0, false
}

func (l Lang) String() string {
	switch l {
	case LangPOSIX:
		return "sh"
	case LangMksh:
		return "mksh"
	case LangZsh:
		return "zsh"
	case LangDash:
		return "dash"
	}
	return "bash"
}

// MarshalText writes the shell's name, so that JSON and .shguardrc agree.
func (l Lang) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

func (l Lang) Variant() syntax.LangVariant { return l.Dialect().Variant }

// ShebangLang reads the shell a script names on its first line:
// `#!/bin/zsh`, `#!/usr/bin/env zsh`, `#!/usr/bin/env -S bash -e`.
func ShebangLang(src []byte) (Lang, bool) {
	if !bytes.HasPrefix(src, []byte("#!")) {
		return 0, false
	}
	line, _, _ := bytes.Cut(src[2:], []byte("\n"))
	fields := strings.Fields(strings.TrimSuffix(string(line), "\r"))
	if len(fields) == 0 {
		return 0, false
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue // env's options and assignments
			}
			prog = f
			break
		}
	}
	return LangFromPath(prog)
}

// directiveShell matches `# shguard shell=zsh` and ShellCheck's
// `# shellcheck shell=zsh` anywhere in a comment line.
var directiveShell = lazy.Regexp{Expr: `(?m)^[ \t]*#[ \t]*(?:shguard|shellcheck)[ \t]+(?:[^\n]*[ \t])?shell=([A-Za-z0-9_./-]+)`}

// DirectiveLang reads a `# shguard shell=NAME` (or ShellCheck's
// `# shellcheck shell=NAME`) directive, which names the shell a file is
// for when its shebang does not (sourced files, snippets).
func DirectiveLang(src []byte) (Lang, bool) {
	// Most scripts mention neither word; many say shell= (a variable).
	if !bytes.Contains(src, []byte("shell=")) || !bytes.Contains(src, []byte("shguard")) && !bytes.Contains(src, []byte("shellcheck")) {
		return 0, false
	}
	m := directiveShell.Get().FindSubmatch(src)
	if m == nil {
		return 0, false
	}
	return LangFromPath(string(m[1]))
}

// Caller says how the program that runs the shell starts it, which decides
// what a foreground `setsid cmd` does: setsid forks (and returns at once,
// leaving cmd with the caller's output) only when it runs as a process
// group leader, which it does when the shell execs it in place and the
// shell itself leads a group.
type Caller int

const (
	// CallerGroupLeader: the shell leads its own process group, as agent
	// tools (Claude Code, Codex, …), shexec and most supervisors start it
	// (setsid/setpgid before exec), so that a timeout can kill the group.
	CallerGroupLeader Caller = iota
	// CallerInGroup: the shell runs in its caller's process group, as a
	// plain `bash -c` from a script, make or a terminal without job
	// control starts it.
	CallerInGroup
)

// ParseCaller reads a caller as flags and settings name it: "leader" (or
// "agent") or "group" (or "make", "script").
func ParseCaller(s string) (Caller, error) {
	switch strings.ToLower(s) {
	case "leader", "agent", "":
		return CallerGroupLeader, nil
	case "group", "make", "script":
		return CallerInGroup, nil
	}
	return 0, fmt.Errorf("unknown caller %q (want leader or group)", s)
}

func (c Caller) String() string {
	if c == CallerInGroup {
		return "group"
	}
	return "leader"
}

// ExplainParseError names the shell the source was parsed for and,
// when another shell's syntax accepts it, that shell: a zsh one-liner
// given to the bash analysis should say "-s zsh", not only "syntax error".
func ExplainParseError(err error, d *Dialect) error {
	pe, ok := err.(*diag.ParseError)
	if !ok {
		return err
	}
	pe.Shell = d.Lang.String()
	for _, l := range []Lang{LangBash, LangZsh, LangMksh, LangPOSIX} {
		if l.Dialect().Variant == d.Variant {
			continue
		}
		if f, _ := Parse(pe.Src, l.Variant()); f != nil {
			pe.ValidIn = l.String()
			break
		}
	}
	msg := "not valid " + pe.Shell + ": " + pe.Msg
	if pe.ValidIn != "" {
		msg += " (it is valid " + pe.ValidIn + ": analyse it as " + pe.ValidIn + " with -s " + pe.ValidIn + " or a `# shguard shell=" + pe.ValidIn + "` line)"
	}
	pe.Msg = msg
	return pe
}
