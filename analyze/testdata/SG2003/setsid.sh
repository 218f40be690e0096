# SG2003: a new session outlives the shell and a group kill misses it.
setsid server >/tmp/s.log 2>&1 & # want SG2003 "runs in a new session"
setsid -f server >/tmp/s.log 2>&1 # want SG2003 "killing the command's process group will not reach"
