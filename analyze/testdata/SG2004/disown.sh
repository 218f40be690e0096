# SG2004: disown removes the job: nothing can wait for it.
server >/tmp/s.log 2>&1 &
disown # want SG2004 "removes the job from the job table"
