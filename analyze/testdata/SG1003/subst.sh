# SG1003: a job in a command substitution keeps its pipe open: the shell
# blocks reading it. The job is orphaned as well (SG2005).
pid=$(server &) # want SG1003 "holds the pipe of a command substitution" SG2005 "orphaned"
# Redirected, the pipe is not held; the orphan stays.
out=$(npm run dev >/dev/null 2>&1 & echo started) # want SG2005 "orphaned"
