#!/usr/bin/env python3
"""Replays one side of a recorded game as searches, to look for a slow or silent answer.

    scripts/replay.py BIN GAME.pdn SIDE RUNS [MOVETIME] [VARIANT] [-- HUB ARGS...]

Starts `BIN hub` once (book off, 2^20 table, official notation), and for each move of SIDE
(W or B) in the game, in order, sets the position before it (the game's FEN and the moves
so far, so the repetition history is the game's) and searches it with `level move-time=`
MOVETIME (default 0.1) and `go think`, RUNS times over the whole game in the same process.
Prints every search whose go-to-done time passed 0.5 s, with the engine's last line, and
the five slowest. Standard library only. Used for a match game in which an engine went
silent (docs/evaluation-at-scale.md, "Matches")."""
import os, re, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttd import start_hub  # noqa: E402


def main(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) < 4:
        sys.exit(__doc__)
    b, pdnf, side, runs = argv[0], argv[1], argv[2].upper(), int(argv[3])
    mt = argv[4] if len(argv) > 4 else "0.1"
    variant = argv[5] if len(argv) > 5 else "international"
    txt = open(pdnf).read()
    m = re.search(r'\[FEN "([^"]+)"\]', txt)
    fen = m.group(1) if m else ""
    body = re.sub(r'\{[^}]*\}', '', re.sub(r'\[[^\]]*\]', '', txt))
    moves = [t for t in body.split() if re.match(r'^[a-h]?\d+(?:[-x:][a-h]?\d+)+$', t)]
    first = fen[0].upper() if fen else "W"
    p, send = start_hub(b, [f"variant={variant}", "notation=official", "book=false", "tt-size=20"], extra)
    times = []
    for r in range(runs):
        send("new-game")
        for i in range(len(moves)):
            mover = first if i % 2 == 0 else ("B" if first == "W" else "W")
            if mover != side:
                continue
            so_far = " ".join(moves[:i])
            base = f"pos pos={fen}" if fen else "pos start"
            send(f'{base} moves="{so_far}"' if so_far else base)
            send(f"level move-time={mt}")
            t0 = time.time()
            send("go think")
            last = ""
            while True:
                l = p.stdout.readline()
                if not l:
                    sys.exit(f"the engine ended at run {r}, ply {i + 1}")
                if l.startswith("done"):
                    break
                if l.startswith("error"):
                    print(f"run {r} ply {i + 1}: {l.strip()}")
                last = l.strip()
            el = time.time() - t0
            times.append((el, r, i + 1))
            if el > 0.5:
                print(f"SLOW run {r} ply {i + 1}: {el:.3f} s, last line {last[:160]}", flush=True)
    send("quit")
    p.wait()
    times.sort(reverse=True)
    print(f"{len(times)} searches; slowest (seconds, run, ply):",
          ", ".join(f"({t:.3f}, {r}, {i})" for t, r, i in times[:5]))


if __name__ == "__main__":
    main(sys.argv[1:])
