#!/usr/bin/env python3
"""ttd2.py ROUNDS CONFIG... : time to depth over several positions.
CONFIG is name=BIN:THREADS[:ENV=VAL]. Each round runs every config on every
position (configs alternating); prints per position the median wall time of
each config and, per config, the geometric mean of its ratio to the first."""
import subprocess, sys, time, re, os, statistics, math
POS = [
 ("italian", "W:W21-32:B1-12", 21),
 ("italian", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15", 20),
 ("italian", "W:W17,19,23,24,25,29,30,31:B1,2,3,5,6,9,11,12,K32", 24),
 ("international", "W:W31-50:B1-20", 17),
 ("international", "W:W28,31-37,41-50:B1-13,16,17,19,23,24", 17),
 ("international", "W:W27,29,31,32,35,37,38,41,45-47,49:B1,3-6,8,11,15-18,26", 18),
]
def run(b, t, env, v, fen, d):
    e = dict(os.environ); e.update(env)
    p = subprocess.Popen([b, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1, env=e)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    for s in [f"set-param name=variant value={v}", "set-param name=book value=false", "set-param name=egdb value=false",
              f"set-param name=threads value={t}", "set-param name=tt-size value=22", "init"]:
        send(s)
    while not p.stdout.readline().startswith("ready"): pass
    send(f"pos pos={fen}"); send(f"level depth={d}")
    t0 = time.time(); send("go think"); nodes = 0
    while True:
        l = p.stdout.readline()
        m = re.search(r"nodes=(\d+)", l)
        if m: nodes = int(m.group(1))
        if l.startswith("done") or not l: break
    el = time.time() - t0
    send("quit"); p.wait()
    return el, nodes
rounds = int(sys.argv[1]); cfgs = []
for a in sys.argv[2:]:
    name, rest = a.split("=", 1); parts = rest.split(":")
    env = dict(x.split("=", 1) for x in parts[2:])
    cfgs.append((name, parts[0], parts[1], env))
res = {(c[0], i): [] for c in cfgs for i in range(len(POS))}
for r in range(rounds):
    for i, (v, fen, d) in enumerate(POS):
        for name, b, t, env in cfgs:
            el, n = run(b, t, env, v, fen, d)
            res[(name, i)].append(el)
            print(f"round {r+1} pos {i+1} {name}: {el:.3f}s nodes={n}", file=sys.stderr, flush=True)
for i, (v, fen, d) in enumerate(POS):
    print(f"pos {i+1} {v} depth {d}: " + ", ".join(f"{c[0]} {statistics.median(res[(c[0], i)]):.3f}s" for c in cfgs))
base = cfgs[0][0]
for name, *_ in cfgs[1:]:
    g = math.exp(statistics.mean(math.log(statistics.median(res[(base, i)]) / statistics.median(res[(name, i)])) for i in range(len(POS))))
    print(f"{name}: time to depth {g:.2f}x faster than {base} (geometric mean of the medians' ratios)")
