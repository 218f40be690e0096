package knowledge

// Programs that hand their work to a daemon and return: the work runs in
// a process the command's shell never started (dockerd's containers,
// systemd's units, pm2's God daemon), with descriptors of its own, and
// the command itself ends as soon as the daemon has the job. A background
// `docker compose up -d &`, `sudo systemctl restart app &` or `pm2 start
// app.js &` is therefore brief: the job holds the caller's output only
// while the client talks to the daemon. (Unlike daemonizes in daemons.go:
// those fork the daemon themselves, which may keep what they inherited.)
//
// Measured: pm2 6.0.14 `pm2 start tick.js` under `bash -c … | cat`: the
// client ended after 4.5 s (the first start spawns the God daemon,
// setsid, reparented to init, its fds 1 and 2 on $PM2_HOME/pm2.log; later
// starts 0.5 s), the pipe reached EOF then, and the app runs under the
// daemon with its own log files. docker (27, client only: no daemon
// here) and systemctl (no systemd in the container) end at once with an
// error; with a daemon, `docker run -d`, `docker compose up -d` and
// `systemctl start` return once the daemon reports the container or unit
// started (docker's --detach, systemd's job queue; `systemctl start
// --no-block` does not even wait for that), which their documentation
// says and the daemon's process tree shows: the containers are children
// of containerd-shim, the units of systemd.

// detacher is one program of the table: the subcommands that hand the
// work over, and the flags that must be there (none: the subcommand is
// enough).
type detacher struct {
	sub  []string
	need []string
}

var detachers = table[[]detacher]{
	{"docker", []detacher{{sub: []string{"run", "create"}, need: []string{"-d", "--detach"}},
		{sub: []string{"start", "restart", "stop", "kill", "rm", "pause", "unpause"}}}},
	{"podman", []detacher{{sub: []string{"run", "create"}, need: []string{"-d", "--detach"}},
		{sub: []string{"start", "restart", "stop", "kill", "rm"}}}},
	{"nerdctl", []detacher{{sub: []string{"run"}, need: []string{"-d", "--detach"}}}},
	{"docker-compose", []detacher{{sub: []string{"up"}, need: []string{"-d", "--detach"}}, {sub: []string{"start", "restart", "stop", "down"}}}},
	{"systemctl", []detacher{{sub: []string{"start", "restart", "reload", "stop", "try-restart", "reload-or-restart", "enable", "disable", "kill"}}}},
	{"service", []detacher{{sub: []string{"start", "restart", "reload", "stop", "force-reload"}}}},
	{"rc-service", []detacher{{sub: []string{"start", "restart", "stop"}}}},
	{"pm2", []detacher{{sub: []string{"start", "restart", "reload", "stop", "delete", "resurrect", "startOrRestart", "startOrReload"}}}},
	{"supervisorctl", []detacher{{sub: []string{"start", "restart", "stop", "reload", "update"}}}},
	{"forever", []detacher{{sub: []string{"start", "restart", "stop", "stopall"}}}},
}

// Detaches reports whether the command hands its work to a daemon and
// returns at once (see detachers).
func Detaches(r Resolved) bool {
	ds, ok := detachers.of(r.Name)
	if !ok {
		return false
	}
	args := ArgvOf(r)
	if r.Name == "docker" || r.Name == "podman" {
		if first, rest := FirstWord(args); first == "compose" || first == "container" {
			if first == "compose" {
				ds, _ = detachers.of("docker-compose")
			}
			args = rest
		}
	}
	first, _ := FirstWord(args)
	if r.Name == "service" && len(args) > 1 {
		first = args[1] // service NAME start
	}
	for _, d := range ds {
		for _, s := range d.sub {
			if first == s && (len(d.need) == 0 || args.Has(d.need...) || attachedDetach(args, d.need)) {
				return true
			}
		}
	}
	return false
}

// attachedDetach reports -d in a cluster of short options (`docker run
// -dit`, `docker run -d -p 80:80` is has's).
func attachedDetach(args Argv, need []string) bool {
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			for _, c := range a[1:] {
				if c == 'd' {
					for _, n := range need {
						if n == "-d" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
