# SG1002: bash runs a backgrounded list in a subshell that waits for its
# last command, holding the caller's output even when that command's is
# redirected.
cd app && npm run dev >/tmp/dev.log 2>&1 & # want SG1002 "runs in a subshell that waits for its last command"
(cd web; vite >/tmp/vite.log 2>&1) & # want SG1002 "subshell that waits"
# exec: the subshell becomes the server; what is left is a leak (SG2001).
cd app && exec npm run dev >/tmp/dev.log 2>&1 & # want SG2001 "never waited for or stopped"
