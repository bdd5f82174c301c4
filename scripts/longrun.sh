#!/usr/bin/env bash
# Long-run robustness check (issue: robustness): self-play matches across
# every variant with a fast clock, counting crashes, illegal moves, silent
# engines and time losses, and sampling the engines' resident memory.
#
#   scripts/longrun.sh [GAMES_PER_VARIANT] [TC] [TT_SIZE]
#
# Defaults: 126 games per variant (1008 in all), --tc 0.1+0.01, tt-size 20
# (2^20 entries of 16 bytes = 16 MiB per engine). Output: one summary line
# per variant, then totals and the largest engine RSS seen.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-126}
tc=${2:-0.1+0.01}
tt=${3:-20}
bin=$(mktemp -d)/damaengine
go build -o "$bin" ./cmd/damaengine
out=$(mktemp -d)
maxrss=0
sample() { # largest VmRSS (kB) of the running engines
  local m=0
  for p in $(pgrep -f "$bin hub" || true); do
    r=$(awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
    [ "${r:-0}" -gt "$m" ] && m=$r
  done
  echo "$m"
}
total=0; bad=0
for v in italian damone english russian brazilian spanish international turkish; do
  "$bin" match --engine1 "$bin hub --tt-size=$tt" --engine2 "$bin hub --tt-size=$tt" \
    --variant "$v" --games "$games" --tc "$tc" --concurrency 2 --pdn "$out/$v.pdn" \
    >"$out/$v.out" 2>"$out/$v.err" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    r=$(sample); [ "$r" -gt "$maxrss" ] && maxrss=$r
    sleep 1
  done
  wait "$pid" || true
  n=$(grep -cE "^game " "$out/$v.err" || true)
  faults=$(grep -cE "lost on time|crashed|did not answer|illegal move" "$out/$v.err" || true)
  echo "$v: $(tail -1 "$out/$v.out") faults=$faults"
  total=$((total + n)); bad=$((bad + faults))
done
echo "longrun games=$total faults=$bad max_engine_rss_kb=$maxrss tc=$tc tt_size=$tt pdn_dir=$out"
