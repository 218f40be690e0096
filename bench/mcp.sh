#!/usr/bin/env bash
# A `run` of `true` through a running `shexec mcp` vs `shexec -c true` as a
# process, alternating samples in one run (bench/mcpbench). Goal: the MCP
# run costs at most the process. Reference rows: a `check` through the same
# server (round trip and analysis, no process) and `bash -c true`.
# Usage: bench/mcp.sh [samples]   (default 50)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/shexec" ./cmd/shexec
go build -o "$tmp/shexec-mcp" ./cmd/shexec-mcp
go build -o "$tmp/mcpbench" ./bench/mcpbench
SHEXEC_HOME=$tmp/home "$tmp/mcpbench" "$tmp/shexec" "${1:-50}"
