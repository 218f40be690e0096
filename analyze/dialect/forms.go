package dialect

// SubshellForm is how a subshell was forked.
type SubshellForm uint8
