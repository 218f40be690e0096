# SG3001: a server, watcher or follower in the foreground holds the tool
# call until its timeout (analyze/knowledge/serverkind.go says which).
npm run dev # want SG3001 "(a dev server) runs until stopped"
tail -f /var/log/syslog # want SG3001 "(a follower)"
python3 -m http.server # want SG3001 "(a server)"
# tail without -f ends with its input.
tail -n 5 /var/log/syslog
