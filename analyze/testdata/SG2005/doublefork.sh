# SG2005: a job started in a subshell that exits without waiting.
(server >/tmp/s.log 2>&1 &) # want SG2005 "started inside a subshell that exits without waiting"
