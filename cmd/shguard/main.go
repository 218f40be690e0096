// Command shguard finds shell commands that hang their caller or leak
// processes, fixes what can be fixed safely, and serves as a pre-exec hook
// for agent tool layers. See `shguard --help`.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/shguard/shguard/analyze"
	_ "github.com/shguard/shguard/internal/startstack" // one stack growth at start, not three (its doc)
	"github.com/shguard/shguard/internal/version"
	"github.com/shguard/shguard/shguardrc"
)

// Exit statuses.
const (
	exitClean    = 0 // nothing at or above -S
	exitFindings = 1
	exitInput    = 2 // input unreadable or not parseable
	exitUsage    = 3
)

// commandName is the file name findings of -c carry.
const commandName = "<command>"

const usageHead = `shguard finds shell commands that hang their caller or leak processes:
'cd app && npm run dev &', 'server &' without redirection, nohup, setsid,
disown, '$(server &)'... It models what the shell that runs them (bash,
zsh, dash or mksh) really does with every file descriptor and background
job, and fixes what can be fixed without changing what the command does.

Usage:
  shguard [flags] [FILE...]        lint files (stdin when none or -)
  shguard [flags] -c 'COMMAND'     lint one command string
  shguard explain SGxxxx           a rule's documentation and examples
  shguard hook [flags]             pre-exec hook for agent tools (shguard hook --help)
  shguard lsp                      language server for editors (shguard lsp --help)

Examples:
  shguard -c 'cd app && npm run dev &'         # error SG1002, exit 1
  shguard --fix -c 'cd app && npm run dev &'   # prints: cd app && exec npm run dev &
  shguard -S error scripts/*.sh                # only what hangs the caller
  shguard -f gcc deploy.sh                     # file:line:col: error: ... [SG1001]
  shguard -f diff *.sh | patch -p1             # apply the fixes as a patch
  shguard -w scripts/*.sh                      # apply the fixes in place
  shguard -f sarif $(git ls-files '*.sh') > shguard.sarif
  shguard -e SG3001,SG2001 run.sh              # skip rules (IDs or names)
  shguard --list-rules

Flags:
`

const usageTail = `
Formats (-f):
  text   file:line:col: severity: message [SGxxxx], the source line and a caret,
         the fix or suggestion (default)
  gcc    file:line:col: error|warning|note: message [SGxxxx], one line each
  json   an array of findings: file, rule, name, severity, line, column,
         end_line, end_column, start_offset, end_offset (bytes), message,
         suggestion, url, fixes (each a message and byte-offset edits)
  sarif  SARIF 2.1.0 for GitHub code scanning and other SARIF viewers
  checkstyle  Checkstyle XML, as ShellCheck writes it (reviewdog, Jenkins,
         GitLab converters); source="shguard.SGxxxx"
  github GitHub Actions workflow commands (::error file=...,line=...::message),
         shown as annotations on the pull request
  diff   a unified diff of the fixes (a/ b/ prefixes: patch -p1, git apply)
  quiet  nothing; the exit status tells
  Stdin is named "-" and a -c command "` + commandName + `".

Fixing:
  --fix prints the fixed source of -c or one file to stdout, byte for byte
  (no newline added), and reports what remains on stderr. -w writes the
  fixes into the files (atomically, keeping their mode) and reports what
  remains. Only fixes that keep what the command does are applied: 'A && B &'
  becomes 'A && exec B &' (--style brace: 'A && { B & }'); a plain 'server &'
  has no such fix and stays (its finding suggests what to do).

Directives:
  # shguard disable=SG2001 -- the watcher must outlive this script
  silences exactly the rules it names (IDs or names) in the statement after
  it (before the first statement: the file). The reason after ' -- ' is
  required.

Configuration:
  A .shguardrc in the file's directory or the nearest parent (the current
  directory for stdin and -c) sets defaults, one key=value a line:
    severity=warning
    exclude=SG3001,SG2001
    style=brace
    shell=zsh
    caller=group
  Flags win over the file; exclude lists add up. --norc ignores it.

Shell:
  The shell that will run the script decides both the syntax and what
  hangs (dash and zsh exec the last command of 'cd app && server &', bash
  forks and waits; dash reads '&>' as '&' then '>'...). It comes from, in
  order: -s/--lang, a '# shguard shell=NAME' (or '# shellcheck shell=NAME')
  line, .shguardrc, the shebang (#!/bin/zsh, #!/usr/bin/env mksh), else
  bash. sh means this machine's /bin/sh (dash on Debian and Ubuntu).

Caller:
  How the shell is started decides a few shapes: a shell that leads its own
  process group (agent tools, shexec) makes a foreground 'setsid cmd' fork
  and return while cmd keeps the output, and takes 'kill -- -$$' for its
  whole group; one in its caller's group (make, npm, Python's subprocess,
  CI runners) does neither. --caller (or caller= in .shguardrc) says which;
  the default is leader.

Exit status:
  0  no finding at or above the -S severity
  1  findings
  2  an input is unreadable (on stderr) or not valid shell (an SG1000
     finding in the output format)
  3  bad usage or a bad .shguardrc
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, apart from main for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "hook":
			return runHook(args[1:], stdin, stdout, stderr)
		case "explain":
			return runExplain(args[1:], stdout, stderr)
		case "lsp":
			return runLSP(args[1:], stdin, stdout, stderr)
		}
	}
	fs := newFlagSet("shguard")
	var (
		command   = fs.StringP("command", "c", "", "lint this command string instead of files")
		format    = fs.StringP("format", "f", "text", "output format: text, gcc, json, sarif, checkstyle, github, diff or quiet")
		severity  = fs.StringP("severity", "S", "info", "report findings of this severity and above: error, warning or info")
		exclude   = fs.StringSliceP("exclude", "e", "skip these rules (comma-separated IDs or names; repeatable)")
		include   = fs.StringSliceP("include", "i", "report only these rules (comma-separated IDs or names)")
		fix       = fs.Bool("fix", false, "print the fixed source (of -c or one file) to stdout")
		write     = fs.BoolP("write", "w", false, "write the fixes into the files, atomically")
		style     = fs.String("style", "default", "fix style for 'A && B &': default ('A && exec B &') or brace ('A && { B & }')")
		lang      = fs.StringP("lang", "s", "", "the shell that runs it: bash, zsh, dash, sh, mksh or ksh (default: a\n'# shguard shell=' line, .shguardrc, the shebang, else bash)")
		caller    = fs.String("caller", "leader", "how the shell is started: leader (its own process group, as agent tools\nand shexec start it) or group (in its caller's group, as make, npm, Python\nand CI runners start it)")
		color     = fs.String("color", "auto", "colour the text format: auto (a terminal, and NO_COLOR unset), always or never")
		norc      = fs.Bool("norc", false, "ignore .shguardrc files")
		listRules = fs.Bool("list-rules", false, "list the rules and exit")
		help      = fs.BoolP("help", "h", false, "show this help")
		ver       = fs.Bool("version", false, "print the version (module version, VCS revision) and exit")
	)
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "shguard: "+format+"\nRun 'shguard --help' for usage.\n", a...)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		return usageErr("%v", err)
	}
	if *help {
		fmt.Fprint(stdout, usageHead+fs.FlagUsages()+usageTail)
		return exitClean
	}
	if *ver {
		fmt.Fprintln(stdout, version.String("shguard"))
		return exitClean
	}
	if *listRules {
		return printRules(stdout, *format)
	}

	var flags settings
	var err error
	if fs.Changed("severity") {
		if flags.severity, err = analyze.ParseSeverity(*severity); err != nil {
			return usageErr("-S: %v", err)
		}
	}
	if flags.exclude, err = ruleSet(*exclude); err != nil {
		return usageErr("--exclude: %v", err)
	}
	if flags.include, err = ruleSet(*include); err != nil {
		return usageErr("--include: %v", err)
	}
	if fs.Changed("style") {
		s, err := analyze.ParseStyle(*style)
		if err != nil {
			return usageErr("--style: %v", err)
		}
		flags.style = &s
	}
	if fs.Changed("lang") {
		l, err := analyze.ParseLang(*lang)
		if err != nil {
			return usageErr("--lang: %v", err)
		}
		flags.lang = &l
	}
	if fs.Changed("caller") {
		c, err := analyze.ParseCaller(*caller)
		if err != nil {
			return usageErr("--caller: %v", err)
		}
		flags.caller = &c
	}
	colored, err := useColor(*color, stdout)
	if err != nil {
		return usageErr("--color: %v", err)
	}
	out, ok := newFormatter(*format, colored)
	if !ok {
		return usageErr("unknown format %q (want text, gcc, json, sarif, checkstyle, github, diff or quiet)", *format)
	}

	files := fs.Args()
	switch {
	case fs.Changed("command") && len(files) > 0:
		return usageErr("-c takes a command string, not files too")
	case *fix && *write:
		return usageErr("--fix prints, -w writes: choose one")
	case (*fix || *write) && *format == "diff":
		return usageErr("-f diff shows the fixes; it does not go with --fix or -w")
	case *fix && len(files) > 1:
		return usageErr("--fix prints one fixed source: give -c or one file (use -w for several)")
	case *write && (fs.Changed("command") || len(files) == 0 || contains(files, "-")):
		return usageErr("-w writes files: give file names (use --fix for -c and stdin)")
	}
	var inputs []input
	switch {
	case fs.Changed("command"):
		inputs = []input{{name: commandName, src: []byte(*command), dir: "."}}
	case len(files) == 0:
		inputs = []input{{name: "-", stdin: stdin, dir: "."}}
	default:
		for _, f := range files {
			if f == "-" {
				inputs = append(inputs, input{name: "-", stdin: stdin, dir: "."})
			} else {
				inputs = append(inputs, input{name: f, path: f})
			}
		}
	}
	if len(files) > 0 {
		batchGC()
	}
	l := &linter{flags: flags, norc: *norc, out: out, stdout: stdout, stderr: stderr}
	switch {
	case *fix:
		return l.fixOne(inputs[0])
	case *write:
		return l.writeAll(inputs)
	}
	return l.lintAll(inputs, *format == "diff")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// ruleSet reads rule lists given as flags (each may hold commas).
func ruleSet(vals []string) (map[string]bool, error) {
	if len(vals) == 0 {
		return nil, nil
	}
	ids, err := shguardrc.RuleList(strings.Join(vals, ","))
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}

func printRules(w io.Writer, format string) int {
	rules := analyze.Rules()
	if format == "json" {
		type rule struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Severity string `json:"severity"`
			Summary  string `json:"summary"`
			URL      string `json:"url"`
		}
		var rs []rule
		for _, r := range rules {
			rs = append(rs, rule{r.ID, r.Name, r.Severity.String(), r.Summary, r.URL()})
		}
		writeJSON(w, rs)
		return exitClean
	}
	for _, r := range rules {
		fmt.Fprintf(w, "%s  %-7s  %-24s  %s\n", r.ID, r.Severity, r.Name, r.Summary)
	}
	return exitClean
}
