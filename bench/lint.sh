#!/usr/bin/env bash
# Linting speed: shguard against `shfmt -l` (same parser) on the machine's
# own shell scripts (files under /usr/bin, /usr/sbin, /usr/lib/git-core,
# /usr/share/debconf and /etc whose first line is a sh or bash shebang),
# side by side in one run, alternating, medians. Goal: ratio <= 1.
# Usage: bench/lint.sh [samples]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/shguard" ./cmd/shguard
shfmt=$(command -v shfmt || true)
if [ -z "$shfmt" ]; then
	GOBIN=$tmp go install mvdan.cc/sh/v3/cmd/shfmt@v3.14.1
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

now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
# run CMD...: milliseconds to run CMD over every file (xargs batches).
run() {
	local start
	start=$(now_ms)
	xargs -0 "$@" <"$tmp/files" >/dev/null 2>&1 || true
	echo $(($(now_ms) - start))
}
: >"$tmp/s.shfmt" >"$tmp/s.shguard"
for ((s = 0; s < samples; s++)); do
	run "$shfmt" -l >>"$tmp/s.shfmt"
	run "$tmp/shguard" -f quiet >>"$tmp/s.shguard"
done
a=$(median <"$tmp/s.shfmt") b=$(median <"$tmp/s.shguard")
printf '  shfmt -l           %6d ms\n' "$a"
printf '  shguard -f quiet   %6d ms   ratio %s (goal <= 1)\n' "$b" "$(awk -v a="$b" -v b="$a" 'BEGIN {printf "%.2f", a/b}')"
