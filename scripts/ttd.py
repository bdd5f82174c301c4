#!/usr/bin/env python3
"""Time to a search depth through the Hub: scripts/ttd.py BIN VARIANT DEPTH THREADS [FEN].

Starts BIN, selects the variant, the thread count, a 2^22 table, book and
endgame tables off, searches the start position (or FEN) to DEPTH and prints
the wall time from go to done, the nodes at that depth and each thread's nodes
(from the engine's debug log). Standard library
only; scripts/ttd2.py runs it over several positions and builds."""
import json, os, re, subprocess, sys, tempfile, time


def start_hub(b, params, args=(), env=None):
    """Starts `BIN hub ARGS`, sends each "name=value" of params as set-param and
    init, waits for ready, and returns (process, send)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.Popen([b, "hub", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1, env=e)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    for kv in params:
        name, value = kv.split("=", 1)
        send(f"set-param name={name} value={value}")
    send("init")
    while True:
        l = p.stdout.readline()
        if not l:
            sys.exit(f"{b} ended before ready")
        if l.startswith("ready"):
            return p, send


def time_to_depth(b, v, d, t, fen="", env=None):
    """Returns (seconds from go to done, nodes at depth d, the nodes of each
    thread as the engine's debug log reports them: main thread first) for
    BIN b."""
    fd, logf = tempfile.mkstemp(prefix="ttd-", suffix=".log")
    os.close(fd)
    try:
        return _time_to_depth(b, v, d, t, fen, env, logf)
    finally:
        os.remove(logf)


def _time_to_depth(b, v, d, t, fen, env, logf):
    p, send = start_hub(b, [f"variant={v}", "book=false", "egdb=false", f"threads={t}", "tt-size=22",
                            "log-level=debug", f"log-file={logf}"], env=env)
    send(f"pos pos={fen}" if fen else "pos start")
    send(f"level depth={d}")
    t0 = time.time(); send("go think")
    nodes = None
    while True:
        l = p.stdout.readline()
        m = re.match(r"info depth=(\d+) .*nodes=(\d+)", l)
        if m and int(m.group(1)) == d:
            nodes = int(m.group(2))
        if not l or l.startswith("done"):
            break
    el = time.time() - t0
    send("quit"); p.wait()
    per = []
    with open(logf) as f:
        for l in f:
            if '"search done"' in l:
                per = json.loads(l).get("thread_nodes", [])
    return el, nodes, per


if __name__ == "__main__":
    b, v, d, t = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    fen = sys.argv[5] if len(sys.argv) > 5 else ""
    el, nodes, per = time_to_depth(b, v, d, t, fen)
    print(f"{v} depth={d} threads={t} wall={el:.3f} nodes={nodes} thread_nodes={','.join(map(str, per))}")
