package knowledge

import (
	"strings"
)

// Daemonizes says how the resolved command puts itself in the background,
// or "" when it does not.
func Daemonizes(r Resolved) string {
	if r.Kind&KDaemon == 0 {
		return ""
	}
	args := ArgvOf(r)
	has := args.Has
	// shortFlag: -f alone or bundled with other single-letter flags.
	shortFlag := func(c byte) bool {
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], c) >= 0 {
				return true
			}
		}
		return false
	}
	switch r.Name {
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
		if daemon && args[0] == "/etc/redis/redis.conf" && !args.Has("--daemonize") {
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
		if r.Name == "memcached" && has("-d") || r.Name == "php-fpm" && has("-D", "--daemonize") || r.Name == "dnsmasq" && !has("-d", "-k", "--keep-in-foreground", "--no-daemon", "--test") {
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

var daemonNames = SetOf(`ssh tmux screen ssh-agent gpg-agent start-stop-daemon daemonize
redis-server keydb-server mongod mongos memcached php-fpm dnsmasq pg_ctl pg_ctlcluster nginx sshd
supervisord gpgconf dbus-launch`)

// HasAttached reports whether a short option is among the arguments,
// alone or with its value attached (`-l`, `-llog/pg.log`).
func HasAttached(args Argv, opt string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, opt) {
			return true
		}
	}
	return false
}
