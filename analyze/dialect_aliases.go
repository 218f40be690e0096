package analyze

import "github.com/shguard/shguard/analyze/dialect"

// The public names that moved to package dialect,
// kept here so that the package's clients compile unchanged.

type Caller = dialect.Caller

const CallerGroupLeader = dialect.CallerGroupLeader

const CallerInGroup = dialect.CallerInGroup

// DirectiveLang reads a `# shguard shell=NAME` (or ShellCheck's
// `# shellcheck shell=NAME`) directive, which names the shell a file is
// for when its shebang does not (sourced files, snippets).
func DirectiveLang(src []byte) (Lang, bool) { return dialect.DirectiveLang(src) }

type Lang = dialect.Lang

const LangBash = dialect.LangBash

const LangDash = dialect.LangDash

// LangFromPath maps the path or name of a shell program, as $SHELL,
// CLAUDE_CODE_SHELL or a shebang give it, to its Lang: /usr/bin/zsh,
// /bin/sh, /opt/homebrew/bin/bash, zsh-5.9, -zsh (a login shell's argv[0]).
func LangFromPath(path string) (Lang, bool) { return dialect.LangFromPath(path) }

const LangMksh = dialect.LangMksh

const LangPOSIX = dialect.LangPOSIX

const LangZsh = dialect.LangZsh

// ParseCaller reads a caller as flags and settings name it: "leader" (or
// "agent") or "group" (or "make", "script").
func ParseCaller(s string) (Caller, error) { return dialect.ParseCaller(s) }

// ParseLang reads a shell name: bash, sh (or posix), dash (or ash), zsh,
// mksh (or ksh). A path or a versioned name works too (/bin/zsh,
// zsh-5.9), as in $SHELL.
func ParseLang(s string) (Lang, error) { return dialect.ParseLang(s) }

// ShebangLang reads the shell a script names on its first line:
// `#!/bin/zsh`, `#!/usr/bin/env zsh`, `#!/usr/bin/env -S bash -e`.
func ShebangLang(src []byte) (Lang, bool) { return dialect.ShebangLang(src) }
