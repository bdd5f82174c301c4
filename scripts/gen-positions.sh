#!/usr/bin/env bash
# Make the shards of one variant's positions, one after another, on one
# core: each `tune gen --format positions` part is resumable, so running
# this again continues where it stopped and skips the finished parts.
#
#   scripts/gen-positions.sh VARIANT GAMES SHARDS [FIRST [LAST]] [-- extra tune gen flags]
#
# e.g. scripts/gen-positions.sh international 400000 8 1 4   (shards 1/8 .. 4/8)
# The parts go to the cache directory (damaengine/positions); merge them
# with `damaengine tune merge --out FILE PART...`. DAMAENGINE (default
# damaengine on the PATH) names the binary.
set -euo pipefail
v=$1 games=$2 n=$3 first=${4:-1} last=${5:-$3}
shift $(( $# < 5 ? $# : 5 ))
[ "${1:-}" = "--" ] && shift
bin=${DAMAENGINE:-damaengine}
for k in $(seq "$first" "$last"); do
  "$bin" tune gen --format positions --variant "$v" --games "$games" --nodes 1000 \
    --random-plies 4 --seed 45 --shard "$k/$n" "$@"
done
