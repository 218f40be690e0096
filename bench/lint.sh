#!/usr/bin/env bash
# Linting speed: shguard against `shfmt -l` (same parser) on the machine's
# own shell scripts (files under /usr/bin, /usr/sbin, /usr/lib/git-core,
# /usr/share/debconf and /etc whose first line is a sh or bash shebang),
# side by side in one run, alternating, medians, with no output (quiet)
# and with JSON output, which issue 15 names. Goal: ratio <= 1.
# Usage: bench/lint.sh [samples]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Both built as README installs shguard: static (CGO_ENABLED=0; with cgo,
# pflag's import of net links shguard dynamically and the loader costs about
# a millisecond a start, which is not the analysis).
CGO_ENABLED=0 go build -o "$tmp/shguard" ./cmd/shguard
shfmt=$(command -v shfmt || true)
if [ -z "$shfmt" ]; then
	CGO_ENABLED=0 GOBIN=$tmp go install mvdan.cc/sh/v3/cmd/shfmt@v3.14.1
	shfmt=$tmp/shfmt
fi

find /usr/bin /usr/sbin /usr/lib/git-core /usr/share/debconf /etc -xdev -type f -size -1024k 2>/dev/null |
	while IFS= read -r f; do
		line=$(head -c 64 "$f" 2>/dev/null | head -n 1 | tr -d '\0') || true
		if [[ $line =~ ^#!\ ?(/usr)?/bin/(env\ +)?(ba)?sh(\ |$) ]]; then
			printf '%s\0' "$f"
		fi
	done >"$tmp/files"
n=$(tr -cd '\0' <"$tmp/files" | wc -c)
bytes=$(xargs -0 cat <"$tmp/files" | wc -c)
printf '%d scripts, %d bytes\n' "$n" "$bytes"

# Each run lints the file list four times over (about 0.1 s), so that the
# millisecond clock of bash's `time` is fine enough.
for i in 1 2 3 4; do cat "$tmp/files"; done >"$tmp/files4"
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# run NAME CMD...: appends "wall cpu" in ms of CMD over the files to $tmp/t.NAME.
run() {
	local name=$1 t
	shift
	TIMEFORMAT='%3R %3U %3S'
	t=$({ time xargs -0 "$@" <"$tmp/files4" >/dev/null 2>&1 || true; } 2>&1)
	awk -v t="$t" 'BEGIN {split(t, f, " "); printf "%.0f %.0f\n", f[1]*1000, (f[2]+f[3])*1000}' >>"$tmp/t.$name"
}
# The three commands run in a rotating order, and every ratio is the median
# of the per-sample ratios (paired: a slow patch of the shared machine
# weighs on both sides of a sample), for wall time and for CPU (user+sys).
cmds=(shfmt quiet json)
for ((s = 0; s < samples; s++)); do
	for ((k = 0; k < 3; k++)); do
		case ${cmds[(s + k) % 3]} in
		shfmt) run shfmt "$shfmt" -l ;;
		quiet) run quiet "$tmp/shguard" -f quiet ;;
		json) run json "$tmp/shguard" -f json ;;
		esac
	done
done
col() { awk -v c="$2" '{print $c}' "$tmp/t.$1"; }
printf '  %-18s %10s %10s %12s %12s\n' "(4 passes)" "wall ms" "cpu ms" "wall ratio" "cpu ratio"
printf '  %-18s %10s %10s\n' "shfmt -l" "$(col shfmt 1 | median)" "$(col shfmt 2 | median)"
for f in quiet json; do
	wr=$(paste -d' ' "$tmp/t.$f" "$tmp/t.shfmt" | awk '{print $1/$3}' | median)
	cr=$(paste -d' ' "$tmp/t.$f" "$tmp/t.shfmt" | awk '{print $2/$4}' | median)
	printf '  %-18s %10s %10s %12.3f %12.3f   (goal <= 1)\n' "shguard -f $f" "$(col "$f" 1 | median)" "$(col "$f" 2 | median)" "$wr" "$cr"
done
