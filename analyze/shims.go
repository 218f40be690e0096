package analyze

import "strings"

// Init shims and privilege droppers: programs that run the command after
// their own arguments, as Docker entrypoints and CI scripts put them
// between the shell and the server (`exec gosu app "$@"`, `tini --
// ./server &`). resolve looks through them (they are wrappers, see
// wrapperOpts); this table says what each takes before the command and,
// for the two that stay as its parent, where they pass a signal on.
//
// Measured in a PID namespace with `SHIM … sleep N >/dev/null 2>&1 & sleep
// 0.3; kill $!` (and pkill -f '^sleep N', kill -9 $!), bash and dash:
//
//   - gosu, su-exec, chpst, setuidgid, envuidgid, envdir and softlimit
//     exec the command after changing user, limits or environment: $! is
//     the command, and `ps -o args -p $!` shows its own command line, so a
//     kill or a pkill -f of the command reaches it.
//   - tini forks the command into a process group of its own (tini.c's
//     isolate_child: setpgid(0, 0)), stays as its parent and passes every
//     signal it catches on to the command (with -g to the command's group),
//     then exits with it: `tini -- ./server & kill $!` leaves nothing, but
//     `tini -- sh -c 'server & wait' & kill $!` leaves the server (the
//     shell dies of the TERM), which tini -g ends too. KILL ends tini
//     alone: the command runs on.
//   - dumb-init forks the command into a session of its own (setsid) and
//     passes every signal on to that session's group, so everything the
//     command started there ends (`dumb-init sh -c 'server & wait' & kill
//     $!` leaves nothing); when its command exits it sends TERM to that
//     group and exits (dumb-init.c's handle_signal). With -c
//     (--single-child) it keeps the command in the shell's group and
//     signals the command alone, as tini does. KILL ends dumb-init alone.
//
// Not among them: runuser and su, which fork for the PAM session and,
// killed, signal their command and linger two seconds before they exit
// (util-linux su-common.c), left out as before.

// shimOperands is how many words a shim takes after its options and
// before the command: the user of gosu, su-exec, setuidgid and envuidgid
// (`gosu app:app ./server`), the directory of envdir.
var shimOperands = map[string]int{
	"gosu": 1, "su-exec": 1, "setuidgid": 1, "envuidgid": 1, "envdir": 1,
}

// relayKind says where a shim that stays as its command's parent passes
// the signals it catches on.
type relayKind uint8

const (
	relayNone  relayKind = iota
	relayChild           // to the command alone (tini, dumb-init -c)
	relayGroup           // to the command's process group (dumb-init, tini -g)
)

// shimRelay is where the shim name, given option o, passes signals on,
// given where it passed them before the option (relay).
func shimRelay(name, o string, relay relayKind) relayKind {
	switch name {
	case "tini":
		if relay == relayNone {
			relay = relayChild
		}
		if len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], 'g') >= 0 { // -g, -sg
			relay = relayGroup
		}
	case "dumb-init":
		if relay == relayNone {
			relay = relayGroup
		}
		if o == "--single-child" || len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], 'c') >= 0 {
			relay = relayChild
		}
	}
	return relay
}

// relayKilled applies a signal sent to a background shim that relays it
// (see the table above): a signal it catches reaches the command, or the
// command's whole group; KILL ends the shim alone, and its
// command runs on holding what it holds.
func (w *walker) relayKilled(j *job, sig string) {
	if uncatchable(sig) {
		return
	}
	if j.relay == relayGroup {
		w.killGroup(j, true)
		return
	}
	w.killed(j)
}
