package knowledge

// builtins are the commands one of the four shells runs itself, without
// a program, in any of their modes: POSIX's special and regular builtins
// and those bash, zsh and mksh add. A background job of one is the
// shell's own subshell running it, so a wrapper that execs a program
// (setsid, nohup, env) in front of its name would run something else or
// nothing: `setsid wait` finds no program, `setsid kill %1` a program
// that knows no jobs. The list errs wide: a name here that some host also
// has as a program (kill, printf, test) only keeps the job as it is.
var builtins = SetOf(`: . [ [[ alias bg bind break builtin caller cd command compgen complete
compopt continue coproc declare dirs disown echo enable eval exec exit export false fc fg
getopts hash help history jobs kill let local logout mapfile popd print printf pushd pwd read
readarray readonly return set shift shopt source suspend test time times trap true type
typeset ulimit umask unalias unset wait whence autoload bindkey emulate functions integer
limit noglob rehash setopt unfunction unhash unlimit unsetopt vared zle zmodload zparseopts
zstyle float sched nameref`)

// Builtin reports whether name is a command some shell runs itself.
func Builtin(name string) bool { return builtins.Has(name) }
