# SG2002: nohup redirects nothing when the output is a pipe.
nohup server >/tmp/s.log 2>&1 & # want SG2002 "nohup redirects nothing when output is a pipe"
nohup server & # want SG1001 "keeps the caller's stdout and stderr open" SG2002 "meant to outlive the shell"
