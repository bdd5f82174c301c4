#!/usr/bin/env python3
"""Count the distinct openings the book gives in self-play.

Plays N games of PLIES plies each, the engine against itself through one
Hub session (new-game, then for every ply `pos start moves="..."`,
`level move-time=S`, `go think`), with the book on at its defaults unless
--option NAME=VALUE says otherwise, and prints how many distinct move
sequences of PLIES plies occurred, the most frequent ones, how many plies
came from the book (an info with nodes=0) and the median time from go to
done of a book move. Standard library only.

    scripts/bookvariety.py ./damaengine [--variant international] [--games 100] [--plies 8] [--movetime 0.1]
"""
import argparse
import collections
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--variant", default="italian")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--movetime", type=float, default=0.1)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    p = subprocess.Popen([a.engine, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    send("hub")
    send("set-param name=variant value=" + a.variant)
    send("set-param name=notation value=official")
    send("set-param name=book value=true")  # off by default; --option book=false turns it off again
    for o in a.option:
        n, v = o.split("=", 1)
        send("set-param name=%s value=%s" % (n, v))
    send("init")
    while True:
        line = p.stdout.readline()
        if line.startswith("error"):
            raise SystemExit(line.strip())
        if line.strip() == "ready":
            break
    seqs = collections.Counter()
    booked, total, book_times = 0, 0, []
    for _ in range(a.games):
        send("new-game")
        moves = []
        for _ in range(a.plies):
            cmd = "pos start"
            if moves:
                cmd += ' moves="%s"' % " ".join(moves)
            send(cmd)
            send("level move-time=%g" % a.movetime)
            t0 = time.perf_counter()
            send("go think")
            from_book = False
            while True:
                line = p.stdout.readline()
                if not line:
                    raise SystemExit("engine quit")
                if line.startswith("info") and " nodes=0 " in line:
                    from_book = True
                if line.startswith("error"):
                    raise SystemExit(line.strip())
                if line.startswith("done"):
                    break
            el = time.perf_counter() - t0
            total += 1
            if from_book:
                booked += 1
                book_times.append(el)
            moves.append(line.split()[1].split("=", 1)[1])
        seqs[" ".join(moves)] += 1
    send("quit")
    print("variant=%s games=%d plies=%d distinct=%d book_plies=%d/%d" % (a.variant, a.games, a.plies, len(seqs), booked, total))
    if book_times:
        print("book move go->done: median %.2f ms, max %.2f ms" % (statistics.median(book_times) * 1e3, max(book_times) * 1e3))
    for s, n in seqs.most_common(5):
        print("%3d  %s" % (n, s))


if __name__ == "__main__":
    main()
