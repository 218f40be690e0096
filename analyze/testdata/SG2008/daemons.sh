# SG2008: a program that daemonizes itself (analyze/knowledge/daemons.go).
tmux new-session -d 'npm run dev' # want SG2008 "starts a detached tmux server"
# Run in its foreground mode: nothing outlives the shell.
tmux -V
