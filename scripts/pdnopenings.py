#!/usr/bin/env python3
"""Count the distinct openings in the games of a PDN file.

Reads the games a `damaengine match --pdn FILE` wrote (in the order
played), takes the first PLIES plies of each of the first GAMES games and
prints how many distinct sequences there are, and the most frequent ones
with their counts; then the first engine's wins, losses and draws as
White and as Black (the match gives it White in its odd rounds), and how
the games ended (the comment the match writes after the last move).
Standard library only.

    scripts/pdnopenings.py FILE [--games 100] [--plies 8] [--top 5]
"""
import argparse
import collections
import re
import signal

# One game of the file: its Round tag (0 if none), Result tag, moves, and
# the match's last comment (how it ended).
Game = collections.namedtuple("Game", "round result moves ending")


def games(text):
    """Yields each game (a Game), in file order."""
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        parts = chunk.split("\n\n", 1)
        body = parts[1] if len(parts) == 2 else ""
        comments = re.findall(r"\{([^}]*)\}", body)
        ending = comments[-1].strip() if comments else "?"
        body = re.sub(r"\{[^}]*\}", " ", body)  # comments
        toks = [t for t in body.split() if not re.fullmatch(r"\d+\.(\.\.)?", t) and t not in ("1-1", "2-0", "0-2", "*")]
        rnd = re.search(r'\[Round "(\d+)"\]', parts[0])
        res = re.search(r'\[Result "([^"]*)"\]', parts[0])
        yield Game(int(rnd.group(1)) if rnd else 0, res.group(1) if res else "*", toks, ending)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--top", type=int, default=5)
    a = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    with open(a.file) as f:
        gs = list(games(f.read()))[: a.games]
    seqs = collections.Counter(" ".join(g.moves[: a.plies]) for g in gs)
    print(f"{len(seqs)} distinct {a.plies}-ply openings in {len(gs)} games")
    for s, n in seqs.most_common(a.top):
        print(f"{n:4d}  {s}")
    # W / L / D of the first engine by its colour: White in odd rounds.
    score = {"White": [0, 0, 0], "Black": [0, 0, 0]}
    for g in gs:
        if g.round == 0 or g.result not in ("2-0", "0-2", "1-1"):
            continue
        colour = "White" if g.round % 2 == 1 else "Black"
        won = (g.result == "2-0") == (colour == "White")
        score[colour][2 if g.result == "1-1" else 0 if won else 1] += 1
    for colour, (w, l, d) in score.items():
        print(f"engine 1 as {colour}: {w} / {l} / {d}")
    for ending, n in collections.Counter(g.ending for g in gs).most_common():
        print(f"{n:4d}  {ending}")


if __name__ == "__main__":
    main()
