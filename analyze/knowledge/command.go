package knowledge

import (
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Resolved is a simple command seen through its wrappers: `sudo -u x nice
// -n 5 nohup setsid -f server` runs server, under nohup, forked by setsid.
type Resolved struct {
	Name                string         // base name of the program that really runs ("" if not literal)
	Args                []*syntax.Word // the words after it
	All                 []*syntax.Word // every word from the program name on
	Head                *syntax.Word   // the word naming the program
	Nohup, Setsid, Fork bool           // fork: setsid -f, which always forks and returns
	SetsidWaits         bool           // setsid -w: when it forks, it waits for the child
	// forkedBefore: a wrapper before setsid runs it as a child (sudo,
	// doas, timeout), so setsid is never the shell's own process.
	ForkedBefore bool
	Exec         bool          // run with exec: replaces the shell
	Timeout      bool          // bounded by timeout: it ends by itself
	Limit        time.Duration // timeout's duration, if a literal
	// TimeoutSig is the signal timeout sends ("" for TERM);
	// timeoutFg: --foreground, which signals the command alone and not
	// the process group timeout puts it in.
	// timeoutKill: -k, a KILL after the signal if the command is
	// still running.
	TimeoutSig  string
	TimeoutFg   bool
	TimeoutKill bool
	Wrapped     bool // at least one wrapper was looked through
	// viaProgram: a program wrapper (env, nohup, nice, timeout, sudo…)
	// runs it, so it is the program of its name, never the builtin;
	// viaCommand: the command builtin runs it (see dialect.commandSkipsBuiltins).
	ViaProgram, ViaCommand bool
	// noProgram: the wrapper was to exec a builtin, a name no program
	// has (`nohup source env.sh`): it fails at once (127).
	NoProgram bool
	Kind      progKind // what the program's name is known for
	// relay: an init shim (tini, dumb-init) stays as the program's
	// parent and passes the signals it catches on (see shims.go).
	Relay RelayKind
}

// wrapperOpts lists, for each wrapper, the options that take an argument
// (so that the argument is not mistaken for the command). prlimit,
// setpriv, chroot and setarch (linux64, linux32) exec their command as
// nice does: a kill of the job or a pkill by its command line reaches it.
var wrapperOpts = table[string]{
	{"sudo", "ugCDhprtUTc"},
	{"doas", "uC"},
	{"env", "uCS"},
	{"nice", "n"},
	{"ionice", "cnp"},
	{"timeout", "sk"},
	{"stdbuf", "ioe"},
	{"command", ""},
	{"exec", "a"},
	{"nohup", ""},
	{"setsid", ""},
	{"chrt", ""},
	{"taskset", ""},
	{"builtin", ""},
	{"prlimit", "po"},
	{"setpriv", ""},
	{"chroot", ""},
	{"setarch", ""},
	{"linux64", ""},
	{"linux32", ""},
	// init shims and privilege droppers (shims.go)
	{"gosu", ""},
	{"su-exec", ""},
	{"setuidgid", ""},
	{"envuidgid", ""},
	{"envdir", ""},
	{"chpst", "uUbe/nlLmdopfcrt"},
	{"softlimit", "madopfcrtls"},
	{"tini", "pe"},
	{"dumb-init", "r"},
}

// Resolve looks through wrappers. It stops at the first word that is not a
// literal, since then the program is not known statically.
func Resolve(args []*syntax.Word) Resolved {
	var r Resolved
	i := 0
	last, before := -1, false         // the last wrapper's word, and r.wrapped before it
	fgChain := true                   // see timeout below
	execer, execerBefore := -1, false // the same for the last wrapper that is a program
	relayAt := -1                     // the word of the shim whose relay counts, the outermost
	for i < len(args) {
		lit := WordLit(args[i])
		if lit == "" {
			return r
		}
		name := ProgramName(lit)
		if execer >= 0 && Builtins.Has(name) && !AlsoPrograms.Has(name) {
			// `timeout 10 wait $!`, `nohup cd app`, `env command -v x`:
			// a program wrapper execs a program, and none has this name.
			// The wrapper fails at once (127) and the builtin never runs.
			return Resolved{Name: ProgramName(WordLit(args[execer])), Head: args[execer], Args: args[execer+1:], All: args[execer:], Kind: KQuick, Exec: r.Exec, Wrapped: execerBefore, NoProgram: true}
		}
		kind := KindOf(name)
		if kind&KWrapper == 0 {
			r.Name, r.Head, r.Args, r.All, r.Kind = name, args[i], args[i+1:], args[i:], kind
			r.ViaProgram = execer >= 0
			if needsTerminal(r) {
				r.Kind = KQuick // fails at once: entr without -n
			} else if kind&KDaemon != 0 && Daemonizes(r) != "" {
				// It forks the daemon and exits (see daemons.go):
				// `memcached -d &` holds nothing for long; the daemon
				// is a job of its own.
				r.Kind |= KQuick
			}
			return r
		}
		r.ViaCommand = r.ViaCommand || name == "command"
		if !Builtins.Has(name) {
			execer, execerBefore = i, r.Wrapped
		}
		argOpts, _ := wrapperOpts.of(name)
		if name == "command" || name == "builtin" {
			if i+1 < len(args) {
				if v := WordLit(args[i+1]); v == "-v" || v == "-V" {
					return Resolved{} // only looks the name up
				}
			}
		}
		last, before = i, r.Wrapped
		r.Wrapped = true
		if name == "setarch" {
			i++ // the architecture, before the options
		}
		switch name {
		case "nohup":
			r.Nohup = true
		case "setsid":
			r.Setsid = true
		case "sudo", "doas":
			r.ForkedBefore = r.ForkedBefore || !r.Setsid
		case "exec":
			r.Exec = true
		case "timeout":
			r.Timeout, r.TimeoutFg = true, false
			r.ForkedBefore = r.ForkedBefore || !r.Setsid
		case "tini", "dumb-init":
			r.ForkedBefore = r.ForkedBefore || !r.Setsid
			if r.Relay == RelayNone {
				r.Relay, relayAt = shimRelay(name, "", RelayNone), i
			}
		}
		i++
		// Options of the wrapper.
		for i < len(args) {
			o := WordLit(args[i])
			if o == "--" {
				i++
				break
			}
			if name == "env" || name == "sudo" || name == "doas" {
				if strings.Contains(o, "=") && !strings.HasPrefix(o, "-") {
					i++ // NAME=value
					continue
				}
			}
			if !strings.HasPrefix(o, "-") || o == "-" {
				break
			}
			if name == "timeout" {
				r.timeoutOption(o, args[i+1:])
			}
			if relayAt == last {
				r.Relay = shimRelay(name, o, r.Relay)
			}
			if name == "nice" && IsDigits(strings.TrimPrefix(o, "-")) {
				i++ // nice -10
				continue
			}
			if name == "sudo" && (o == "--background" || len(o) > 1 && o[1] != '-' && strings.Contains(o, "b")) {
				r.Fork = true // sudo -b: forks, in a process group of its own, with the caller's output (daemons_kept.go)
			}
			if name == "setsid" {
				if o == "-f" || o == "--fork" || (len(o) > 1 && o[1] != '-' && strings.Contains(o, "f")) {
					r.Fork = true
				}
				if o == "-w" || o == "--wait" || (len(o) > 1 && o[1] != '-' && strings.Contains(o, "w")) {
					r.SetsidWaits = true
				}
			}
			i++
			if strings.HasPrefix(o, "--") {
				if !strings.Contains(o, "=") && longTakesArg(name, o) {
					i++
				}
				continue
			}
			// Short options, possibly bundled: the last one may take the
			// next word as its argument, unless it is attached.
			last := o[len(o)-1]
			if strings.IndexByte(argOpts, last) >= 0 && len(o) == 2 {
				i++
			}
		}
		switch name {
		case "timeout":
			// The duration; 0 means no limit. The smallest of nested
			// timeouts bounds the command: it fires first (the ones
			// around it return with it). Its signal reaches the
			// command alone only when it and every timeout inside it
			// have --foreground: one without passes it on to its whole
			// group (`timeout --foreground 5 timeout 60 sh -c …`).
			if i < len(args) {
				if d, ok := parseDuration(WordLit(args[i])); ok && d > 0 && (r.Limit == 0 || d < r.Limit) {
					r.Limit, fgChain = d, r.TimeoutFg
				} else {
					fgChain = fgChain && r.TimeoutFg
				}
			}
			r.TimeoutFg = fgChain
			i++
		case "chrt":
			i++ // the priority
		case "taskset":
			i++ // the mask
		case "chroot":
			i++ // the new root
		}
		n, _ := shimOperands.of(name) // gosu's user, envdir's directory
		i += n
	}
	if last >= 0 {
		if name := ProgramName(WordLit(args[last])); !Builtins.Has(name) {
			// A wrapper given nothing to run is itself the program, and
			// it ends at once: nohup, setsid and timeout with a usage
			// error, env and nice printing what they would have set.
			// (exec, command and builtin alone run nothing.)
			return Resolved{Name: name, Head: args[last], Args: args[last+1:], All: args[last:], Kind: KQuick, Exec: r.Exec, Wrapped: before}
		}
	}
	return r
}

// ProgramName is the name a command word runs under. A word with a slash
// names a file, never a builtin: `/opt/bin/nohup` is nohup, but `./exec`
// and `exec/` are programs of their own (or no program), not the exec
// builtin that would make `exec ./exec` look like an exec of nothing. The
// few builtins that are also ordinary programs keep their name.
func ProgramName(lit string) string {
	slash := strings.LastIndexByte(lit, '/')
	if slash < 0 {
		return lit
	}
	name := lit[slash+1:] // path.Base, without its allocation for ./x
	if name == "" || Builtins.Has(name) && !AlsoPrograms.Has(name) {
		return lit
	}
	return name
}

// AlsoPrograms are the builtins that exist as programs too, run by path
// with the same effect for this analysis.
var AlsoPrograms = SetOf(`[ echo false kill printf pwd test true time`)

// timeoutOption records what an option of timeout (o, followed by the
// words next) says about the signal it sends when the time is up.
func (r *Resolved) timeoutOption(o string, next []*syntax.Word) {
	switch {
	case o == "--foreground":
		r.TimeoutFg = true
	case o == "-k" || o == "--kill-after":
		r.TimeoutKill = len(next) > 0 && WordLit(next[0]) != "0"
	case strings.HasPrefix(o, "--kill-after="):
		r.TimeoutKill = o != "--kill-after=0"
	case strings.HasPrefix(o, "-k"):
		r.TimeoutKill = o != "-k0"
	case o == "-s" || o == "--signal":
		if len(next) > 0 {
			r.TimeoutSig = WordLit(next[0])
		}
	case strings.HasPrefix(o, "--signal="):
		r.TimeoutSig = strings.TrimPrefix(o, "--signal=")
	case strings.HasPrefix(o, "-s"):
		r.TimeoutSig = o[2:]
	}
}

func longTakesArg(wrapper, opt string) bool {
	switch wrapper {
	case "sudo":
		switch opt {
		case "--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--close-from":
			return true
		}
	case "env":
		switch opt {
		case "--unset", "--chdir", "--split-string":
			return true
		}
	case "nice":
		return opt == "--adjustment"
	case "timeout":
		return opt == "--signal" || opt == "--kill-after"
	case "stdbuf":
		return opt == "--input" || opt == "--output" || opt == "--error"
	case "ionice":
		return opt == "--class" || opt == "--classdata" || opt == "--pid"
	case "prlimit":
		return opt == "--pid" || opt == "--output"
	case "chroot":
		return opt == "--userspec" || opt == "--groups"
	case "dumb-init":
		return opt == "--rewrite"
	case "setpriv":
		switch opt {
		case "--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps",
			"--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
			"--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter":
			return true
		}
	}
	return false
}

// Builtins are the bash builtins and keywords: `exec` cannot run them, and
// a background job of one of them does not hold anything for long.
var Builtins = SetOf(`. : [ alias bg bind break builtin caller cd command compgen complete
compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts
hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray
readonly return set shift shopt source suspend test times trap true type typeset ulimit
umask unalias unset wait if then else elif fi case esac for select while until do done in
function time coproc { } ! [[ ]]`)

// filters read their input until it ends and write as they go: in a
// pipeline they last as long as what feeds them. (Not tail: -f never ends.)
var filters = SetOf(`cat tee grep egrep fgrep sed awk gawk mawk sort uniq wc head tr cut
column jq fold nl paste rev tac expand unexpand fmt base64 xxd od`)

// quick builtins finish at once whatever their arguments; a background job
// of one of them holds nothing worth reporting. (print is a builtin of zsh
// and mksh; bash and dash find no such command, which ends at once too.
// fg and bg fail at once without job control; under set -m fg waits for
// its job, which the walk counts as a wait: see walker.call.)
var quick = SetOf(`: [ cd echo export false printf pwd set shift test true umask unset
local declare typeset readonly alias unalias hash type kill disown jobs trap exit return
break continue let getopts times print fg bg`)

// instant programs end at once whatever their arguments: they print a
// fact or make one change to the file system. A background job of one of
// them is as brief as one of a quick builtin. (pgrep and pidof read the
// process table once: dash's `kill $(pgrep npm) &>/dev/null` is over at
// once, though the kill runs in the background. ls lists a directory and
// ends: `ls *.go | entr -nr go run . >log 2>&1 &` holds the caller's
// stderr no longer than that.)
var instant = SetOf(`date uname whoami id hostname basename dirname nproc arch logname groups
tty realpath readlink mktemp touch mkdir rmdir ln printenv pgrep pidof ls`)

// hasSubst reports whether any of the words runs a command or process
// substitution.
func hasSubst(words []*syntax.Word) bool {
	found := false
	for _, w := range words {
		Inspect(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				found = true
			}
			return !found
		})
	}
	return found
}

// Argv is the literal text of a command's arguments ("" for a word that
// expands something), for rules that recognise programs by their flags.
type Argv []string

func ArgvOf(r Resolved) Argv {
	args := make(Argv, 0, len(r.Args))
	for _, a := range r.Args {
		args = append(args, Value(a))
	}
	return args
}

// Command is the command line of the program itself, as pkill -f reads
// it: its name as the shell passed it (`./server`, `/usr/bin/node`, a
// bare name found in PATH; the wrappers that exec pass it on so) and its
// arguments. (pkill without -f matches the basename: see walker.byName.)
func (args Argv) Command(r Resolved) []string {
	if r.Name == "" {
		return nil
	}
	return append([]string{Value(r.Head)}, args...)
}

// Has reports whether any of the flags is among the arguments, a long
// flag also in its --flag=value spelling.
func (args Argv) Has(flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || (strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=")) {
				return true
			}
		}
	}
	return false
}
