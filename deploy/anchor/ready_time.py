#!/usr/bin/env python3
"""Seconds from `isready` to `readyok` for USI engines and hash sizes, side by side.

    ready_time.py MB[,MB...] ENGINE [ENGINE ...]

For each hash size and engine: a fresh process, `usi`, `setoption name USI_Hash value MB`
(other options at their defaults; `BookFile no_book` for YaneuraOu), then the time of the first
`isready` (the table is made), of `usinewgame` + a second `isready` (nothing should be paid
again), and of the same after a short search and `gameover` (a used table is cleared).
Run it on an idle machine.
"""
import subprocess
import sys
import time


def ready(p):
    t = time.monotonic()
    p.stdin.write("isready\n")
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            return float("nan")
        if line.strip() == "readyok":
            return time.monotonic() - t


def send(p, s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def wait(p, token):
    while True:
        line = p.stdout.readline()
        if not line or line.startswith(token):
            return


def measure(engine, mb):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    send(p, "usi")
    wait(p, "usiok")
    send(p, "setoption name BookFile value no_book")
    send(p, f"setoption name USI_Hash value {mb}")
    first = ready(p)
    send(p, "usinewgame")
    again = ready(p)
    send(p, "position startpos moves 7g7f 3c3d")
    send(p, "go nodes 200000")
    wait(p, "bestmove")
    send(p, "gameover win")
    send(p, "usinewgame")
    used = ready(p)
    send(p, "quit")
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
    return first, again, used


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sizes = [int(x) for x in sys.argv[1].split(",")]
    engines = sys.argv[2:]
    print("| USI_Hash MB | engine | first isready s | again s | after a game s |")
    print("|---|---|---|---|---|")
    for mb in sizes:
        for e in engines:
            first, again, used = measure(e, mb)
            print(f"| {mb} | {e.rsplit('/', 1)[-1]} | {first:.2f} | {again:.2f} | {used:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
