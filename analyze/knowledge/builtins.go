package knowledge

// moreBuiltins are the builtins zsh and mksh add to bash's (Builtins).
var moreBuiltins = SetOf(`autoload bindkey emulate float functions integer limit noglob print
rehash sched setopt unfunction unhash unlimit unsetopt vared whence zle zmodload zparseopts
zstyle nameref`)

// Builtin reports whether name is a command one of the four shells runs
// itself, in any of their modes. A background job of one is the shell's
// own subshell running it, so a wrapper that execs a program (setsid,
// nohup, env) in front of its name would run something else or nothing:
// `setsid wait` finds no program, `setsid kill %1` a program that knows
// no jobs. It errs wide: a name that some host also has as a program
// (kill, printf, test) only keeps such a job as it is.
func Builtin(name string) bool { return Builtins.Has(name) || moreBuiltins.Has(name) }
