#!/usr/bin/env python3
"""nps of short searches over USI: `hayate bench`'s nine positions (read from bench.rs), each
searched with `go byoyomi MS` after `usinewgame`, `USI_Hash 64`. Sums the nodes and time of each
search's last `info` line (the stop's line). Usage: python3 short_nps.py BIN MS"""
import os, re, subprocess, sys

BENCH_RS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "bench.rs")
SFENS = [l.strip().strip('",') for l in open(BENCH_RS, encoding="utf-8")
         if l.strip().startswith('"') and l.count("/") >= 8]
POSITIONS = ["startpos"] + ["sfen " + s for s in SFENS]

engine, ms = sys.argv[1], sys.argv[2]
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def send(cmd):
    p.stdin.write(cmd + "\n")
    p.stdin.flush()


def until(token):
    """Reads to the line starting with `token`; returns the last `info` line with nodes."""
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nodes " in line:
            last = line
        if line.startswith(token):
            return last
    sys.exit("engine closed its output")


send("usi"); until("usiok")
send("setoption name USI_Hash value 64"); send("isready"); until("readyok")
total_nodes = total_ms = 0
for pos in POSITIONS:
    send("usinewgame"); send("position " + pos); send("isready"); until("readyok")
    send("go btime 0 wtime 0 byoyomi " + ms)
    last = until("bestmove")
    nodes = int(re.search(r" nodes (\d+)", last).group(1))
    t = int(re.search(r" time (\d+)", last).group(1))
    depth = re.search(r" depth (\d+)", last).group(1)
    total_nodes += nodes; total_ms += t
    print(f"depth {depth} nodes {nodes} time {t}")
send("quit")
print(f"total nodes {total_nodes} time {total_ms} ms nps {total_nodes * 1000 // max(total_ms, 1)}")
