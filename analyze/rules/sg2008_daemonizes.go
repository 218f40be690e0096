package rules

import (
	"github.com/shguard/shguard/analyze/diag"
)

// Daemonizes reports programs that fork themselves into the background:
// `ssh -f`, `tmux new -d`, `screen -dm`, `ssh-agent`, `redis-server
// --daemonize yes`… The shell returns, the daemon stays, and nothing in the
// command keeps a handle on it.
var Daemonizes = Rule{
	ID:       "SG2008",
	Name:     "daemonizes",
	Severity: diag.Warning,
	Summary:  "A program that daemonizes itself (ssh -f, tmux new -d, ssh-agent…) outlives the shell unmanaged",
	Doc: `Some programs fork into the background on their own: ssh -f, tmux new -d,
screen -dm, ssh-agent, gpg-agent --daemon, start-stop-daemon --background,
redis-server --daemonize yes, mongod --fork, memcached -d, pg_ctl start,
nginx, supervisord without -n, gpgconf --launch, dbus-launch. No & appears in the command, yet a process outlives it, re-parented
to init, with no pid in the script's hands. Run the program in the
foreground mode it offers (ssh without -f, redis-server without
--daemonize, nginx -g 'daemon off;') as a managed background job, or stop
it explicitly before the command ends (pg_ctl stop, redis-cli shutdown,
nginx -s stop, ssh-agent -k, supervisorctl shutdown: then nothing is
reported). Some keep the caller's output as well, and the caller hangs
(SG1001): pg_ctl start without -l, memcached -d -v, gpg-agent --daemon
without --log-file, nginx with its error log on stderr.`,
	Wrong: `tmux new-session -d -s dev 'npm run dev'`,
	Right: `./node_modules/.bin/vite >/tmp/dev.log 2>&1 & pid=$!; sleep 2; kill $pid`,
	check: func(p *Pass) {
		// The daemon is a job the walk keeps (see daemons.go): one its
		// stop command, a kill by name or by pid file ended is not
		// reported.
		for _, j := range p.Jobs {
			if j.Daemon != "" && j.Reportable() {
				p.Report(j.Start, j.End,
					p.snippet(j.Start, j.End)+" "+j.Daemon+" and outlives the shell, unmanaged; run it in its foreground mode as a managed background job, or stop it before the command ends")
			}
		}
	},
}
