#!/usr/bin/env python3
"""Time to depth over several positions: scripts/ttd2.py ROUNDS CONFIG...

CONFIG is NAME=BIN:THREADS[:ENV=VALUE...]. Each round runs every config on
every position (the configs alternating, through scripts/ttd.py); prints per
position the median wall time of each config and, for each config after the
first, the geometric mean of the first's medians over its own."""
import math, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttd import time_to_depth

# Six of bench's positions, at depths of 0.4-3.2 s for one thread.
POS = [
    ("italian", "W:W21-32:B1-12", 21),
    ("italian", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15", 20),
    ("italian", "W:W17,19,23,24,25,29,30,31:B1,2,3,5,6,9,11,12,K32", 24),
    ("international", "W:W31-50:B1-20", 17),
    ("international", "W:W28,31-37,41-50:B1-13,16,17,19,23,24", 17),
    ("international", "W:W27,29,31,32,35,37,38,41,45-47,49:B1,3-6,8,11,15-18,26", 18),
]

rounds, cfgs = int(sys.argv[1]), []
for a in sys.argv[2:]:
    name, rest = a.split("=", 1)
    parts = rest.split(":")
    cfgs.append((name, parts[0], parts[1], dict(x.split("=", 1) for x in parts[2:])))
res = {(c[0], i): [] for c in cfgs for i in range(len(POS))}
for r in range(rounds):
    for i, (v, fen, d) in enumerate(POS):
        for name, b, t, env in cfgs:
            el, n, per = time_to_depth(b, v, d, t, fen, env)
            res[(name, i)].append(el)
            share = "/".join(f"{x / max(1, sum(per)):.2f}" for x in per)
            print(f"round {r+1} pos {i+1} {name}: {el:.3f}s nodes={n} thread_nodes={','.join(map(str, per))} share={share}",
                  file=sys.stderr, flush=True)
med = {k: statistics.median(x) for k, x in res.items()}
for i, (v, fen, d) in enumerate(POS):
    print(f"pos {i+1} {v} depth {d}: " + ", ".join(f"{c[0]} {med[(c[0], i)]:.3f}s" for c in cfgs))
base = cfgs[0][0]
for name, *_ in cfgs[1:]:
    g = math.exp(statistics.mean(math.log(med[(base, i)] / med[(name, i)]) for i in range(len(POS))))
    print(f"{name}: time to depth {g:.2f}x faster than {base} (geometric mean of the medians' ratios)")
