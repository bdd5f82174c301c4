#!/usr/bin/env python3
"""Measure how much of a fixed move time the engine uses.

Plays the engine against itself over the Hub protocol (one process, every
move with `level move-time=S` then `go think`) and times each `go think`
from the moment the line is written to the moment `done` is read. Prints the
median, the minimum and the maximum think time and the median as a share of
S. Standard library only.

    scripts/timeuse.py ./damaengine 0.1 [--variant international] [--moves 60]

With --bench, searches each of the variant's bench positions once instead
(`damaengine bench --list` is not needed: the positions are read from the
engine's `bench` output) and prints the depth, nodes and time reached on
each, for the depth-at-a-fixed-time comparison in docs/testing.md.
"""
import argparse
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("movetime", type=float)
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--bench", action="store_true")
    a = ap.parse_args()
    fens = []
    if a.bench:
        out = subprocess.run([a.engine, "bench", "--variant", a.variant, "--depth", "1"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("position "):
                fens.append(line.split(" fen=")[1].split(" move=")[0])
    p = subprocess.Popen([a.engine, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("engine closed its output")
            if line.startswith(prefix):
                return line

    send("hub")
    until("wait")
    send("set-param name=variant value=" + a.variant)
    send("set-param name=notation value=official")
    send("init")
    until("ready")
    times = []
    if fens:
        depths = []
        for f in fens:
            send("new-game")
            send("pos pos=%s" % f)
            send("level move-time=%g" % a.movetime)
            send("go think")
            last = ""
            while True:
                line = p.stdout.readline()
                if line.startswith("info"):
                    last = line
                if line.startswith("done") or not line:
                    break
            kv = dict(x.split("=", 1) for x in last.split() if "=" in x and not x.startswith("pv"))
            depths.append(int(kv.get("depth", 0)))
            print("depth=%s nodes=%s time=%s nps=%s fen=%s" % (kv.get("depth"), kv.get("nodes"), kv.get("time"), kv.get("nps"), f))
        send("quit")
        print("positions=%d movetime=%.3f median-depth=%g min=%d max=%d" % (
            len(depths), a.movetime, statistics.median(depths), min(depths), max(depths)))
        return
    for g in range(a.games):
        send("new-game")
        moves = []
        for _ in range(a.moves):
            send('pos start moves="%s"' % " ".join(moves))
            send("level move-time=%g" % a.movetime)
            t0 = time.monotonic()
            send("go think")
            line = until("done")
            times.append(time.monotonic() - t0)
            mv = [f for f in line.split() if f.startswith("move=")]
            if not mv:
                break
            moves.append(mv[0][5:])
    send("quit")
    med = statistics.median(times)
    print("moves=%d movetime=%.3f median=%.4f min=%.4f max=%.4f used=%.1f%%" % (
        len(times), a.movetime, med, min(times), max(times), 100 * med / a.movetime))


if __name__ == "__main__":
    main()
