package walk

import (
	"path"
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
)

// A program that daemonizes (see daemonizes) forks a process that outlives
// the command, and the walk keeps it as a job the shell has no handle on
// (jobForked, like setsid -f's): what it holds of the command's
// descriptors decides whether the caller hangs, and a kill by name or the
// program's own stop command ends it. Measured in a PID namespace as an
// agent tool runs the shell (stdout and stderr one pipe, read to EOF):
//
//   - Most close or replace what they inherited: redis-server --daemonize
//     yes (stdin, stdout and stderr onto /dev/null, even with --logfile
//     /dev/stdout, which it opens after), memcached -d, ssh-agent,
//     start-stop-daemon --background, supervisord without -n, gpgconf
//     --launch, pg_ctl -l FILE, gpg-agent --daemon --log-file FILE.
//   - pg_ctl start without -l runs the server as `exec postgres … <
//     /dev/null 2>&1` with pg_ctl's stdout (pg_ctl.c, start_postmaster):
//     the postmaster and every backend hold the caller's stdout, on both
//     their descriptors 1 and 2, and the caller never gets EOF (`pg_ctl -D
//     db start; echo done` hangs; `>/dev/null` does not).
//   - memcached -d -v keeps all three: its daemonize(maxcore, verbose)
//     skips the dup2 of /dev/null when verbose.
//   - gpg-agent --daemon without --log-file keeps stderr (it logs there).
//   - nginx keeps stderr when its error log is stderr: `-g 'error_log
//     stderr;'`, or a configuration without an error_log directive (the
//     file is not in the command: only what -g says is followed).
//
// Each is stopped by its own command, which the walk applies to the
// daemons of its program (see daemonStops): `pg_ctl -D db stop`,
// `redis-cli shutdown`, `nginx -s stop`, `ssh-agent -k`, `gpgconf --kill
// gpg-agent`, `start-stop-daemon --stop`, `supervisorctl shutdown`, `tmux
// kill-server` (all measured but tmux's).

// daemonFds is what the daemon r forks keeps of the descriptors in that
// the command ran with: nothing, unless the table above says so.
func daemonFds(r knowledge.Resolved, in fdtable.Table) fdtable.Table {
	if t, ok := keptByDetached(r, in); ok {
		return t // (daemons_kept.go)
	}
	var t fdtable.Table
	args := knowledge.ArgvOf(r)
	switch r.Name {
	case "pg_ctl":
		logged := args.Has("--log") || knowledge.HasAttached(args, "-l")
		if !logged {
			t[1], t[2] = in[1], in[1] // `exec postgres … 2>&1`
		}
	case "memcached":
		if args.Has("--verbose") || knowledge.HasAttached(args, "-v") || knowledge.HasAttached(args, "-vv") {
			t[1], t[2] = in[1], in[2]
		}
	case "gpg-agent":
		if !args.Has("--log-file") {
			t[2] = in[2]
		}
	case "nginx":
		for i, a := range args {
			if a == "-g" && i+1 < len(args) && logsToStderr(args[i+1]) {
				t[2] = in[2]
			}
		}
	}
	return t
}

// logsToStderr reports whether nginx's -g directives send its error log
// to stderr.
func logsToStderr(directives string) bool {
	for d := range strings.SplitSeq(directives, ";") {
		f := strings.Fields(d)
		if len(f) >= 2 && f[0] == "error_log" && (f[1] == "stderr" || f[1] == "/dev/stderr") {
			return true
		}
	}
	return false
}

// daemonStops names the programs whose daemons the command r stops, or
// nil.
func daemonStops(r knowledge.Resolved) []string {
	args := knowledge.ArgvOf(r)
	switch r.Name {
	case "pg_ctl", "pg_ctlcluster":
		if args.Has("stop") && !args.Has("start", "restart") {
			return []string{r.Name}
		}
	case "redis-cli", "keydb-cli":
		for _, a := range args {
			if strings.EqualFold(a, "shutdown") {
				return []string{"redis-server", "keydb-server"}
			}
		}
	case "nginx":
		for i, a := range args {
			if a == "-s" && i+1 < len(args) && (args[i+1] == "stop" || args[i+1] == "quit") {
				return []string{"nginx"}
			}
		}
	case "ssh-agent":
		if args.Has("-k") {
			return []string{"ssh-agent"}
		}
	case "gpgconf":
		for i, a := range args {
			if a == "--kill" && i+1 < len(args) && (args[i+1] == "gpg-agent" || args[i+1] == "all") {
				return []string{"gpg-agent", "gpgconf"}
			}
		}
	case "start-stop-daemon":
		if args.Has("--stop", "-K") {
			return []string{"start-stop-daemon"}
		}
	case "supervisorctl":
		if args.Has("shutdown") {
			return []string{"supervisord"}
		}
	case "tmux":
		if args.Has("kill-server") {
			return []string{"tmux"}
		}
	}
	return nil
}

// daemonPidFile is the file the daemon r writes its pid into, as its
// options name it ("" for none the walk can name): memcached -P,
// redis-server --pidfile, start-stop-daemon --make-pidfile --pidfile,
// supervisord --pidfile, mongod --pidfilepath, dnsmasq --pid-file, php-fpm
// --pid, nginx -g 'pid FILE;'. A kill of what it holds, `kill $(cat
// FILE)`, ends the daemon (measured with memcached -d -P).
func daemonPidFile(r knowledge.Resolved) string {
	args := knowledge.ArgvOf(r)
	var opts []string
	switch r.Name {
	case "memcached":
		opts = []string{"-P", "--pidfile"}
	case "redis-server", "keydb-server":
		opts = []string{"--pidfile"}
	case "start-stop-daemon":
		opts = []string{"-p", "--pidfile"}
	case "supervisord":
		opts = []string{"-j", "--pidfile"}
	case "mongod":
		opts = []string{"--pidfilepath"}
	case "dnsmasq":
		opts = []string{"-x", "--pid-file"}
	case "php-fpm":
		opts = []string{"-g", "--pid"}
	}
	if r.Name == "start-stop-daemon" && !args.Has("-m", "--make-pidfile") {
		return "" // the program may write it, or not
	}
	for i, a := range args {
		for _, o := range opts {
			switch {
			case a == o && i+1 < len(args):
				return args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				return a[len(o)+1:]
			}
		}
		if r.Name == "nginx" && a == "-g" && i+1 < len(args) {
			for d := range strings.SplitSeq(args[i+1], ";") {
				if f := strings.Fields(d); len(f) == 2 && f[0] == "pid" {
					return f[1]
				}
			}
		}
	}
	return ""
}

// daemonWritesPid records that the daemon j writes its pid into the file
// its command r names.
func (w *walker) daemonWritesPid(j *Job, r knowledge.Resolved) {
	name := daemonPidFile(r)
	if name == "" {
		return
	}
	if w.p.pidFiles == nil {
		w.p.pidFiles = map[string]pidFile{}
	}
	w.p.pidFiles[path.Clean(name)] = pidFile{jobs: []*Job{j}}
}

// stopDaemons applies a daemon's stop command r to the daemons of the
// programs it names.
func (w *walker) stopDaemons(r knowledge.Resolved) {
	progs := daemonStops(r)
	if progs == nil {
		return
	}
	for _, j := range w.p.Jobs {
		if j.Daemon != "" && !j.Resolved() && slices.Contains(progs, knowledge.Resolve(j.Prog).Name) {
			w.end(j)
		}
	}
}
