# SG1001: a background job that keeps the caller's stdout or stderr.
npm run dev & # want SG1001 "keeps the caller's stdout and stderr open"
# Redirections apply left to right: 2>&1 first copies the caller's stdout.
python3 -m http.server 8000 2>&1 >/dev/null & # want SG1001 "keeps the caller's stderr open"
# Both redirected, and waited for: nothing to report.
server >/tmp/s.log 2>&1 &
wait $!
