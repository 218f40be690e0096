package analyze

import "strings"

// Daemonizes reports programs that fork themselves into the background:
// `ssh -f`, `tmux new -d`, `screen -dm`, `ssh-agent`, `redis-server
// --daemonize yes`… The shell returns, the daemon stays, and nothing in the
// command keeps a handle on it.
var Daemonizes = register(&Rule{
	ID:       "SG2008",
	Name:     "daemonizes",
	Severity: Warning,
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
	check: func(p *pass) {
		// The daemon is a job the walk keeps (see daemons.go): one its
		// stop command, a kill by name or by pid file ended is not
		// reported.
		for _, j := range p.jobs {
			if j.daemon != "" && j.reportable() {
				p.report(j.start, j.end,
					p.snippet(j.start, j.end)+" "+j.daemon+" and outlives the shell, unmanaged; run it in its foreground mode as a managed background job, or stop it before the command ends")
			}
		}
	},
})

// daemonizes says how the resolved command puts itself in the background,
// or "" when it does not.
func daemonizes(r resolved) string {
	if r.kind&kDaemon == 0 {
		return ""
	}
	args := argvOf(r)
	has := args.has
	// shortFlag: -f alone or bundled with other single-letter flags.
	shortFlag := func(c byte) bool {
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0 {
				return true
			}
		}
		return false
	}
	switch r.name {
	case "ssh":
		if shortFlag('f') {
			return "forks into the background after authentication (-f)"
		}
	case "tmux":
		if (has("new", "new-session") && shortFlag('d')) || has("start-server", "start") {
			return "starts a detached tmux server"
		}
	case "screen":
		if shortFlag('d') && shortFlag('m') || has("-dm", "-dmS") {
			return "starts a detached screen session"
		}
	case "ssh-agent":
		if !has("-k", "-D", "-d") && !hasOperand(args) {
			return "forks an agent daemon"
		}
	case "gpg-agent":
		if has("--daemon") {
			return "forks an agent daemon (--daemon)"
		}
	case "start-stop-daemon":
		if has("--background", "-b") || shortFlag('b') && (has("--start", "-S") || shortFlag('S')) {
			return "starts a daemon (--background)"
		}
	case "daemonize":
		return "daemonizes its command"
	case "redis-server", "keydb-server":
		// The last --daemonize wins; Debian's and Ubuntu's
		// /etc/redis/redis.conf says `daemonize yes` (measured with
		// redis 7.0 on Debian 12: `redis-server /etc/redis/redis.conf`
		// forks away), which options after it override.
		daemon := len(args) > 0 && args[0] == "/etc/redis/redis.conf"
		for i, a := range args {
			if a == "--daemonize" && i+1 < len(args) {
				daemon = args[i+1] == "yes"
			}
		}
		if daemon && args[0] == "/etc/redis/redis.conf" && !args.has("--daemonize") {
			return "daemonizes (Debian's /etc/redis/redis.conf says daemonize yes)"
		}
		if daemon {
			return "daemonizes (--daemonize yes)"
		}
	case "mongod", "mongos":
		if has("--fork") {
			return "forks into the background (--fork)"
		}
	case "memcached", "php-fpm", "dnsmasq":
		if r.name == "memcached" && has("-d") || r.name == "php-fpm" && has("-D", "--daemonize") || r.name == "dnsmasq" && !has("-d", "-k", "--keep-in-foreground", "--no-daemon", "--test") {
			return "daemonizes"
		}
	case "pg_ctl", "pg_ctlcluster":
		if has("start", "restart") {
			return "starts a PostgreSQL server in the background"
		}
	case "nginx":
		if !has("-s", "-t", "-T", "-v", "-V", "-h", "-?") && !strings.Contains(strings.Join(args, " "), "daemon off") {
			return "daemonizes unless told `daemon off;`"
		}
	case "supervisord":
		// supervisor's options.py: it forks and the parent exits unless
		// -n (or nodaemon=true in its file, which the walk cannot see)
		if !has("-n", "--nodaemon", "-h", "--help", "-v", "--version") {
			return "daemonizes unless given -n"
		}
	case "gpgconf":
		for i, a := range args {
			if a == "--launch" && i+1 < len(args) && args[i+1] != "" {
				return "starts a daemon (--launch)"
			}
		}
	case "dbus-launch":
		// Not measured (dbus-x11 is not installed here): dbus-launch(1),
		// "Unlike the daemon itself, dbus-launch exits, so backticks or
		// the $() construct can be used": the bus daemon it starts
		// holds nothing of its output, and outlives it.
		if !hasOperand(args) {
			return "starts a session bus daemon"
		}
	case "sshd":
		if !has("-D", "-d", "-t", "-T") {
			return "daemonizes unless given -D"
		}
	}
	return moreDaemons(r) // (daemons_kept.go)
}

// hasOperand: ssh-agent with a command runs it and exits with it; any word
// that is not an option or an option's argument is that command. The
// check is rough (it only matters that the agent has a command at all).
func hasOperand(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-a" || a == "-E" || a == "-t" || a == "-O" || a == "-P":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return true
		}
	}
	return false
}

var daemonNames = setOf(`ssh tmux screen ssh-agent gpg-agent start-stop-daemon daemonize
redis-server keydb-server mongod mongos memcached php-fpm dnsmasq pg_ctl pg_ctlcluster nginx sshd
supervisord gpgconf dbus-launch`)
