// Package exec runs a shell command the way agent tool layers run `bash -c`,
// without the two ways that goes wrong: a background process that keeps the
// output pipe open hangs the caller, which reads until EOF; and processes
// that escape the shell (setsid, double forks, nohup, disown) outlive
// everything and can be neither found nor stopped.
//
// Run starts the shell in its own process group with the caller as child
// subreaper (Linux, FreeBSD), owns the output pipes, and returns as soon as
// the shell has exited and its output is delivered. What is still alive or
// still holds the output then (the leftovers) is found (through /proc on
// Linux, sysctl on the BSDs; without a subreaper, by process group and the
// run's marker variable) and handled by a LeftoverPolicy. A timeout stops
// the whole tree, escapees included, with SIGTERM then SIGKILL; signals go
// through pidfds, or re-check the start time, so that a recycled pid is
// never hit. platform.go lists what each platform supplies.
//
// Run serves one command at a time per process. A long-lived program that
// runs several at once (the MCP server, package mcpserver) uses a Spawner:
// each command runs in the caller's process until it ends, and one still
// running when the caller stops waiting is handed over to a managed job
// (Store.Adopt) whose exit status the caller, still the shell's parent,
// records. Store.Start runs a command as a job from its start.
//
// cmd/shexec is the command-line face of this package.
package exec
