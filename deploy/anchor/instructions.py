#!/usr/bin/env python3
# Instructions per node of engines on positions from real games (`position ...` lines, as for
# nps.py): each engine searches `go nodes NODES` on every position under valgrind's cachegrind,
# then again with `go nodes 1000`; the difference of the instruction counts over the difference
# of the nodes leaves start-up (table builds, hash clearing) out. Deterministic and blind to the
# machine's load, where nps on a shared machine is not; it does not see cache misses, so confirm
# a gain it shows with nps.py. Needs `valgrind` (Debian package).
#   python3 deploy/anchor/instructions.py NODES POSITIONS ENGINE...
import re
import subprocess
import sys


def run(engine, positions, nodes):
    """Instructions executed and nodes searched by one engine session."""
    p = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", engine],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(tok):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit(f"{engine} died")
            if line.startswith(tok):
                return line

    send("usi")
    wait("usiok")
    for o in ["USI_Hash value 256", "Threads value 1", "BookFile value no_book"]:
        send("setoption name " + o)
    send("isready")
    wait("readyok")
    send("usinewgame")
    total = 0
    for pos in positions:
        send("position " + pos)
        send(f"go nodes {nodes}")
        last = None
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit(f"{engine} died")
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith("bestmove"):
                break
        m = re.search(r" nodes (\d+)", last or "")
        total += int(m.group(1)) if m else 0
    send("quit")
    err = p.stderr.read()
    p.wait()
    m = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if not m:
        raise SystemExit(f"no instruction count from valgrind for {engine}")
    return int(m.group(1).replace(",", "")), total


def main():
    nodes = int(sys.argv[1])
    positions = [line.strip() for line in open(sys.argv[2]) if line.strip()]
    for engine in sys.argv[3:]:
        big_ir, big_nodes = run(engine, positions, nodes)
        small_ir, small_nodes = run(engine, positions, 1000)
        per_node = (big_ir - small_ir) / max(big_nodes - small_nodes, 1)
        print(f"{engine}: {big_nodes} nodes, {big_ir} instructions, {per_node:.0f} per node")


main()
