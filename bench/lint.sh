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

now_us() { local t=${EPOCHREALTIME/./}; echo "$t"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
# run CMD...: microseconds to run CMD over every file (xargs batches).
run() {
	local start
	start=$(now_us)
	xargs -0 "$@" <"$tmp/files" >/dev/null 2>&1 || true
	echo $(($(now_us) - start))
}
: >"$tmp/s.shfmt" >"$tmp/s.shguard"
for ((s = 0; s < samples; s++)); do
	run "$shfmt" -l >>"$tmp/s.shfmt"
	run "$tmp/shguard" -f quiet >>"$tmp/s.shguard"
done
a=$(median <"$tmp/s.shfmt") b=$(median <"$tmp/s.shguard")
printf '  shfmt -l           %8.1f ms\n' "$(awk -v a="$a" 'BEGIN {print a/1000}')"
printf '  shguard -f quiet   %8.1f ms   ratio %s (goal <= 1)\n' "$(awk -v a="$b" 'BEGIN {print a/1000}')" "$(awk -v a="$b" -v b="$a" 'BEGIN {printf "%.3f", a/b}')"
