# SG2007: job control does not work in a shell without a terminal; the
# job it meant to bring back is left unmanaged (SG2001).
sleep 30 >/dev/null 2>&1 & fg # want SG2001 "never waited for" SG2007 "`fg` needs job control, which a non-interactive shell does not have"
