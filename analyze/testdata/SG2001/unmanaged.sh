# SG2001: redirected, but nobody waits for it or stops it.
npm run dev >/tmp/dev.log 2>&1 & # want SG2001 "is never waited for or stopped"
# Killed right after: managed.
sleep 5 >/dev/null 2>&1 &
kill $!
