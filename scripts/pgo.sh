#!/bin/sh
# Regenerates cmd/damaengine/default.pgo, the CPU profile that "go build"
# uses for a profile-guided build of the engine (-pgo=auto, the default):
# the bench of every variant with its embedded evaluation, and Italian's and
# International's with the hand-written one. About 15 seconds.
# Rebuild and compare speed with farm-bench (README, "Benchmarks") before
# committing a new profile.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/damaengine" ./cmd/damaengine
"$tmp/damaengine" bench --variant all --cpuprofile "$tmp/all.prof" >/dev/null 2>&1
"$tmp/damaengine" bench --variant italian --hand-written --cpuprofile "$tmp/it.prof" >/dev/null 2>&1
"$tmp/damaengine" bench --variant international --hand-written --cpuprofile "$tmp/in.prof" >/dev/null 2>&1
go tool pprof -proto "$tmp/all.prof" "$tmp/it.prof" "$tmp/in.prof" >cmd/damaengine/default.pgo
ls -l cmd/damaengine/default.pgo >&2
