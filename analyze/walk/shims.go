package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
)

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

// relayKilled applies a signal sent to a background shim that relays it
// (see the table above): a signal it catches reaches the command, or the
// command's whole group; KILL ends the shim alone, and its
// command runs on holding what it holds.
func (w *walker) relayKilled(j *Job, sig string) {
	if uncatchable(sig) {
		return
	}
	if j.relay == knowledge.RelayGroup {
		w.killGroup(j, true)
		return
	}
	w.killed(j)
}
