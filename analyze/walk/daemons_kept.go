package walk

import (
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
)

// Programs that detach themselves with a flag (-f, -b, -d, --daemon,
// --background) and what they keep of the caller's descriptors when they
// do. The detached process outlives the command (SG2008); one that keeps
// the caller's stdout or stderr also hangs it (SG1001), however soon the
// command itself returns. Measured under `unshare -p -f --mount-proc` as
// an agent tool runs the shell (bash -c, stdin /dev/null, stdout and
// stderr one pipe read to EOF), Debian 12:
//
//	program (version)                           after it detaches
//	ssh -f -N (OpenSSH 9.2p1)                   nothing: fork_postauth puts 0, 1, 2 on /dev/null
//	ssh -f -N -v                                stderr (its debug log), unless -E FILE
//	ssh -f HOST CMD (no -N)                     stdout and stderr, the session's, while CMD runs
//	autossh -f (1.4g)                           nothing
//	sudo -b CMD (1.9.13p3)                      stdout and stderr (sudo and CMD, in a group of their own)
//	start-stop-daemon --background (1.21.22)    nothing
//	start-stop-daemon --background --no-close   stdout and stderr
//	screen -dmS (4.09), tmux new -d (3.3a)      nothing
//	daemonize (1.7.8), git daemon --detach      nothing
//	gunicorn -D (20.1.0), rsync --daemon (3.2.7) nothing
//	emacs --daemon (28.2)                       nothing (after 1.5 s of start-up)
//	redis-server --daemonize yes, memcached -d, pg_ctl -l, nginx …: daemons.go
//
// OpenSSH before 8.6 kept all three after -f (daemon(1, 1) without the
// /dev/null redirection): the verdicts assume a current OpenSSH.

// keptByDetached is what the detached process of r keeps of in, for the
// programs of the table above; ok is false for a program not in it.
func keptByDetached(r knowledge.Resolved, in fdtable.Table) (t fdtable.Table, ok bool) {
	args := knowledge.ArgvOf(r)
	switch r.Name {
	case "ssh":
		if !knowledge.SshRemoteCommand(args) {
			if knowledge.ShortCluster(args, 'v') && !args.Has("-E") && !knowledge.HasAttached(args, "-E") {
				t[2] = in[2] // debug1: … on stderr
			}
			return t, true
		}
		t[1], t[2] = in[1], in[2] // the session's output
		return t, true
	case "start-stop-daemon":
		if args.Has("--no-close", "-C") {
			t[1], t[2] = in[1], in[2]
		}
		return t, true
	case "autossh", "gunicorn", "emacs":
		return t, true
	}
	return t, false
}
