#!/usr/bin/env python3
"""Find the moves a fast search walks into: scripts/shots.py BIN PDN [options].

For every move of the games in PDN (a `damaengine match --pdn` file), the
position after it is searched by BIN twice through the Hub: shallow (a fixed
time a move, the games' own, default 0.1 s) and deep (default 2 s). A move
after which the deep search thinks the mover stands a man or more worse
(--drop, centi-men) than the shallow one did is printed: the FEN before the
move, the move, both scores for the mover, and the deep line, which shows
the shot. With --check BIN2 (repeatable) each such position is searched again before the
move by BIN2 at the shallow time: does it still play the move, and what
does it think of it? Progress on stderr, with both scores of every move (the game's
trace); the findings on stdout. Standard
library only.

  scripts/shots.py damaengine games.pdn --variant english --games 20 --plies 80
"""
import argparse, re, subprocess, sys, time


class Hub:
    """One engine process spoken to through the Hub protocol."""

    def __init__(self, binary, variant):
        self.p = subprocess.Popen(binary.split() + ["hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        for s in ["hub", f"set-param name=variant value={variant}", "set-param name=notation value=official",
                  "set-param name=book value=false", "set-param name=tt-size value=20", "init"]:
            self.send(s)
        self.wait("ready")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        """The lines up to the first starting with word, or to an error about
        go (the Hub's answer to a go where the side to move has no move)."""
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError("engine ended")
            lines.append(l.strip())
            if l.split()[:1] == [word] or l.startswith('error message="go:'):
                return lines

    def search(self, fen, moves, secs):
        """The score (side to move), the move and the line of a search of secs seconds."""
        self.send("new-game")
        self.send(f'pos pos={fen} moves="{" ".join(moves)}"' if moves else f"pos pos={fen}")
        self.send(f"level move-time={secs}")
        self.send("go think")
        score, pv = None, ""
        for l in self.wait("done"):
            if l.startswith("info"):
                m = re.search(r"score=(-?[0-9.]+)", l)
                if m:
                    score = round(float(m.group(1)) * 100)
                m = re.search(r'pv="([^"]*)"', l)
                if m:
                    pv = m.group(1)
            if l.startswith("done"):
                m = re.search(r"move=(\S+)", l)
                return score, (m.group(1) if m else ""), pv
        return score, "", pv

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def games(path):
    """(FEN, [moves]) of each game in a PDN file."""
    text = open(path).read()
    for g in re.split(r"\n(?=\[Event )", text):
        fen = re.search(r'\[FEN "([^"]+)"\]', g)
        body = re.sub(r"\[[^\]]*\]", "", g)
        body = re.sub(r"\{[^}]*\}", "", body)
        result = re.search(r'\[Result "([^"]+)"\]', g)
        toks = body.split()
        if result and toks and toks[-1] == result.group(1):
            toks = toks[:-1]  # the result, which looks like a move (2-0)
        moves = [t for t in toks if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t)]
        if fen and moves:
            yield fen.group(1), moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin")
    ap.add_argument("pdn")
    ap.add_argument("--variant", default="english")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--only", help="comma-separated game numbers (1-based) to look at instead of the first --games")
    ap.add_argument("--plies", type=int, default=80, help="moves of each game looked at")
    ap.add_argument("--shallow", type=float, default=0.1)
    ap.add_argument("--deep", type=float, default=2.0)
    ap.add_argument("--drop", type=int, default=100)
    ap.add_argument("--check", action="append", default=[], help="another binary searched before each move found (repeatable)")
    a = ap.parse_args()
    eng = Hub(a.bin, a.variant)
    chks = [Hub(c, a.variant) for c in a.check]
    found = looked = 0
    t0 = time.time()
    only = {int(x) for x in a.only.split(",")} if a.only else None
    for gi, (fen, moves) in enumerate(games(a.pdn)):
        if only is not None and gi + 1 not in only:
            continue
        if only is None and gi >= a.games:
            break
        for i in range(min(len(moves), a.plies)):
            after = moves[: i + 1]
            s, _, _ = eng.search(fen, after, a.shallow)
            d, _, pv = eng.search(fen, after, a.deep)
            looked += 1
            if s is None or d is None:
                continue
            # a win or loss found reads as 20 men, so that a shot the deep
            # search sees through to the end still counts once
            s, d = max(min(s, 2000), -2000), max(min(d, 2000), -2000)
            # scores are the opponent's (to move after the move): the mover's is minus them
            if -d <= -s - a.drop:
                found += 1
                line = f"game {gi + 1} ply {i + 1}: {moves[i]} (before: {' '.join(moves[:i])}) mover's score shallow {-s} deep {-d}; deep line {pv}"
                for name, chk in zip(a.check, chks):
                    cs, cm, _ = chk.search(fen, moves[:i], a.shallow)
                    line += f"; {name} plays {cm} ({'the same' if cm == moves[i] else 'another'}), score {cs}"
                print(line, flush=True)
            el = time.time() - t0
            print(f"shots: game {gi + 1}, ply {i + 1} {moves[i]}: mover's score shallow {-s} deep {-d}; {looked} moves looked at, {found} found, {el:.0f} s",
                  file=sys.stderr)
    eng.close()
    for chk in chks:
        chk.close()
    print(f"# {looked} moves looked at, {found} with a drop of {a.drop} or more")


if __name__ == "__main__":
    main()
