#!/usr/bin/env python3
"""Count the distinct openings in the games of a PDN file.

Reads the games a `damaengine match --pdn FILE` wrote (in the order
played), takes the first PLIES plies of each of the first GAMES games and
prints how many distinct sequences there are, and the most frequent ones
with their counts. Standard library only.

    scripts/pdnopenings.py FILE [--games 100] [--plies 8] [--top 5]
"""
import argparse
import collections
import re


def games(text):
    """Yields the move list of each game, in file order."""
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        parts = chunk.split("\n\n", 1)
        body = parts[1] if len(parts) == 2 else ""
        body = re.sub(r"\{[^}]*\}", " ", body)  # comments
        toks = [t for t in body.split() if not re.fullmatch(r"\d+\.(\.\.)?", t) and t not in ("1-1", "2-0", "0-2", "*")]
        yield toks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--top", type=int, default=5)
    a = ap.parse_args()
    with open(a.file) as f:
        gs = list(games(f.read()))[: a.games]
    seqs = collections.Counter(" ".join(g[: a.plies]) for g in gs)
    print(f"{len(seqs)} distinct {a.plies}-ply openings in {len(gs)} games")
    for s, n in seqs.most_common(a.top):
        print(f"{n:4d}  {s}")


if __name__ == "__main__":
    main()
