#!/usr/bin/env bash
# Builds the playground's WebAssembly module and puts Go's loader for it
# (wasm_exec.js, from the Go that built the module: the two must match)
# beside the page. Serve this folder as static files; nothing is run on a
# server. Usage: docs/playground/build.sh [OUTDIR] (default: this folder)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
if [ "$out" != "$here" ]; then
	cp "$here"/index.html "$here"/playground.js "$here"/playground.css "$here"/sw.js "$out"/
fi
cd "$here/../.."
GOOS=js GOARCH=wasm go build -trimpath -ldflags=-s -o "$out/shguard.wasm" ./playground/wasm
root=$(go env GOROOT)
if [ -f "$root/lib/wasm/wasm_exec.js" ]; then
	cp "$root/lib/wasm/wasm_exec.js" "$out/"
else
	cp "$root/misc/wasm/wasm_exec.js" "$out/" # Go before 1.24
fi
echo "built $out/shguard.wasm ($(wc -c <"$out/shguard.wasm") bytes, $(gzip -9c "$out/shguard.wasm" | wc -c) gzipped)"
