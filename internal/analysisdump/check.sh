#!/bin/sh
# Writes the analysis dumps of the corpus, the repository's scripts, random
# and grammar programs and the fuzz seeds into DIR (default
# /tmp/shguard-dump), for a byte-for-byte comparison with another
# checkout's:  internal/analysisdump/check.sh /tmp/before  (on main), then
# internal/analysisdump/check.sh /tmp/after && diff -r /tmp/before /tmp/after
set -eu
dir=${1:-/tmp/shguard-dump}
mkdir -p "$dir"
cd "$(dirname "$0")/../.."
SHGUARD_DUMP="$dir/corpus.jsonl" go test ./corpus -run '^TestDumpAnalyses$' -count=1 >/dev/null
SHGUARD_DUMP="$dir/fuzz.jsonl" go test ./fuzz -run '^TestDumpAnalyses$' -count=1 >/dev/null
wc -l "$dir"/*.jsonl
