#!/usr/bin/env bash
# Benchmarks shexec against its floor, in one run, with alternating samples
# and medians (no external tools needed):
#   1. startup: `shexec -c true` vs bench/floor (a Go program that only runs
#      `bash -c true` in its own process group); goal <= 1.15x;
#   2. throughput: 500 MB through `shexec -c` vs through `bash -c`, both into
#      a pipe read by cat; goal <= 1.15x;
#   3. peak RSS of shexec while 1 GB passes through; goal < 20 MB.
# Usage: bench/shexec.sh [samples]   (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pflag imports package net, so a default build of shexec links libc
# dynamically (the floor does not), which costs about a millisecond per
# start; the CGO_ENABLED=0 build shows shexec without that. Throughput and
# RSS use the default build.
go build -o "$tmp/shexec" ./cmd/shexec
CGO_ENABLED=0 go build -o "$tmp/shexec-static" ./cmd/shexec
go build -o "$tmp/floor" ./bench/floor
shexec=$tmp/shexec static=$tmp/shexec-static floor=$tmp/floor

now_us() { local t=${EPOCHREALTIME/./}; echo "$t"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# loop N FILE CMD... : appends to FILE the microseconds per run of CMD, run
# N times in a row with its stdout on a pipe, as an agent's tool layer runs
# it (shexec hands a file or /dev/null to the shell directly, so /dev/null
# would not measure its real path).
loop() {
	local n=$1 file=$2 i start
	shift 2
	start=$(now_us)
	for ((i = 0; i < n; i++)); do "$@"; done | cat >/dev/null
	echo $((($(now_us) - start) / n)) >>"$file"
}
# pipe CMD... : milliseconds to push the command's output through cat.
pipe() {
	local start
	start=$(now_us)
	"$@" | cat >/dev/null
	echo $((($(now_us) - start) / 1000))
}

printf 'startup (%d samples of 200 runs, alternating)\n' "$samples"
: >"$tmp/s.floor" >"$tmp/s.shexec" >"$tmp/s.static" >"$tmp/s.bash"
for ((s = 0; s < samples; s++)); do
	loop 200 "$tmp/s.floor" "$floor" true
	loop 200 "$tmp/s.shexec" "$shexec" -c true
	loop 200 "$tmp/s.static" "$static" -c true
	loop 200 "$tmp/s.bash" bash -c true
done
b=$(median <"$tmp/s.bash") f=$(median <"$tmp/s.floor") x=$(median <"$tmp/s.shexec") y=$(median <"$tmp/s.static")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a/b}'; }
printf '  bash -c true                 %6d us/run\n' "$b"
printf '  floor true                   %6d us/run\n' "$f"
printf '  shexec -c true               %6d us/run   ratio to floor %s (goal <= 1.15)\n' "$x" "$(ratio "$x" "$f")"
printf '  shexec -c true, CGO_ENABLED=0 %5d us/run   ratio to floor %s (goal <= 1.15)\n' "$y" "$(ratio "$y" "$f")"

printf 'throughput: 500 MB into a pipe (%d samples, alternating)\n' "$samples"
gen='head -c 500000000 /dev/zero'
: >"$tmp/t.bash" >"$tmp/t.shexec"
for ((s = 0; s < samples; s++)); do
	pipe bash -c "$gen" >>"$tmp/t.bash"
	pipe "$shexec" -c "$gen" >>"$tmp/t.shexec"
done
b=$(median <"$tmp/t.bash") x=$(median <"$tmp/t.shexec")
printf '  bash -c             %6d ms\n' "$b"
printf '  shexec -c           %6d ms   ratio %s (goal <= 1.15)\n' "$x" "$(ratio "$x" "$b")"

printf 'peak RSS while 1 GB passes through shexec\n'
for mode in plain json; do
	flag=()
	[ "$mode" = json ] && flag=(--json)
	"$shexec" "${flag[@]}" -c 'head -c 1000000000 /dev/zero' > >(cat >/dev/null) &
	pid=$!
	peak=0
	while kb=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$kb" ]; do
		peak=$kb
		sleep 0.05
	done
	wait "$pid"
	printf '  shexec %-5s        %6d KiB (goal < 20480)\n' "$mode" "$peak"
done
