package knowledge

// Process supervisors run as a background job (`runsvdir ./services &`,
// `supervise ./svc &`) run their services as children or grandchildren,
// with the descriptors the supervisor was given. Measured in a PID
// namespace with `SUP … >/dev/null 2>&1 & sleep 0.5; kill $!`, a run
// script of `exec sleep N` (runit 2.1.2, daemontools 0.76, supervisor
// 4.2, ruby-foreman 0.87):
//
//   - runit's runsvdir exits at once on TERM and leaves every runsv and
//     its service running (runsvdir(8): "If runsvdir receives a TERM
//     signal, it exits with 0 immediately"; only HUP makes it send TERM
//     to each runsv first); the service is a grandchild, under runsv.
//   - daemontools' supervise dies of TERM and leaves its service, its
//     child, running (only `svc -dx` stops both); svscan dies of TERM and
//     leaves each supervise and its service.
//
// Measured and not among them, each ending its services when TERM ends
// it: runit's runsv (TERM is its `x` command: stop the service, then
// exit), `supervisord -n` (it stops every program first) and foreman,
// which signals the processes of its Procfile (a line with shell syntax,
// `a && b`, runs under /bin/sh, which on dash dies and leaves b: the
// Procfile is not in the command, so foreman is taken to end them).

// supervisorLeaves says whether the resolved command is a supervisor that
// a TERM ends alone, leaving its services running (apart), and whether
// they are its grandchildren, which `pkill -P $!` does not reach (deep).
func supervisorLeaves(r Resolved) (apart, deep bool) {
	switch r.Name {
	case "runsvdir", "svscan":
		return true, true
	case "supervise":
		return true, false
	}
	return false, false
}
