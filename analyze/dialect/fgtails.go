package dialect

// What a foreground subshell of the script execs in place of itself. A
// `( )`, a `$(…)` or a pipeline element is a fork of the script, and the
// program it runs is that fork's child, unless the fork execs it: then
// it is the script's own child, and a nested shell there has the script
// for its $PPID. `(sh -c 'kill $PPID')`, `x=$(sh -c 'kill $PPID')` and
// `echo | sh -c 'kill $PPID'` kill the script in all four shells, as a
// nested shell the script runs itself does (see walk_ppidkill.go), while
// `(sh -c 'kill $PPID'; echo)` kills the subshell only and the script
// goes on. Which commands each shell execs was measured by comparing a
// nested sh's $PPID with the script's $$ in 68 shapes (bash 5.2, zsh 5.9,
// dash 0.5.12, mksh R59):
//
//   - bash: a lone program of a `( )` (redirected too) or of a `$(…)`
//     (not redirected); the last of a list and the right of an && or ||
//     that is the whole last command, unredirected, not after a `&`, with
//     no trap with an action set before it (parenTails); a pipeline
//     element that is one program, and a `( )` element, as a `( )`; never
//     inside { }, if or case.
//   - zsh and dash: what they exec in the subshell of a background job
//     (dialect.bgTail: through lists, && and ||, { }, if, case and `( )`,
//     redirected or not; zsh also a one-word for loop), unless a trap with
//     an action was set before it.
//   - mksh: a lone program (redirected too), and a lone `( )`.
//
// A function's body is not followed (bash's `x=$(f)` execs the last
// command of f, its `(f)` does not; zsh and dash neither).
type fgTailRule uint8
