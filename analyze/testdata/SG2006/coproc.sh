# SG2006: a coprocess nobody waits for; its stderr is the caller's.
coproc server # want SG1001 "keeps the caller's stderr open" SG2006 "a coprocess nobody waits for"
