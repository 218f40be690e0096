# SG3002: a foreground setsid under a group leader forks and returns at once.
setsid ./build.sh; echo built # want SG3002 "leaves the process group"
