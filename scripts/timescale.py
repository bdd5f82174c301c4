#!/usr/bin/env python3
"""Run a Hub engine with its move time scaled: what twice the time is worth.

    damaengine match --engine1 "python3 scripts/timescale.py 2 damaengine hub --tt-size=20" \
                     --engine2 "damaengine hub --tt-size=20" --movetime 0.1 ...

plays the first engine at 0.2 s a move against the second at 0.1 s. Every
line from the runner goes to the engine unchanged but `level move-time=S`,
whose S is multiplied by the factor; the engine's lines come back
unchanged. The match runner waits for a silent engine by its own limit (a
few seconds past the move time), so factors up to about 10 at 0.1 s are safe.
"""

import re
import subprocess
import sys
import threading

LEVEL = re.compile(r"(\bmove-time=)([0-9.]+)")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: timescale.py FACTOR ENGINE [ARGS...]")
    factor = float(sys.argv[1])
    eng = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           bufsize=0)

    def back():
        for line in eng.stdout:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    t = threading.Thread(target=back, daemon=True)
    t.start()
    for line in sys.stdin.buffer:
        text = line.decode()
        if text.startswith("level"):
            text = LEVEL.sub(lambda m: m.group(1) + "%.3f" % (float(m.group(2)) * factor), text)
        try:
            eng.stdin.write(text.encode())
            eng.stdin.flush()
        except BrokenPipeError:
            break
    try:
        eng.stdin.close()
    except BrokenPipeError:
        pass
    eng.wait()
    t.join(timeout=2)


if __name__ == "__main__":
    main()
