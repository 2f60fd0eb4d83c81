#!/usr/bin/env python3
"""Why an engine lost: the first costly move of each lost game, found and classified by an analyser.

    classify_losses.py RUN_DIR ANALYSER [--engine NAME] [--nodes N] [--jobs J] [--drop CP]
                       [--level CP] [--out FILE]

RUN_DIR is an arena run (`hayate match --out RUN_DIR`: `results.jsonl` and the CSA records).
ANALYSER is a USI engine (YaneuraOu, or Hayate itself) that analyses each position of a lost game
from the end of the opening at `go nodes N` (default 1,000,000; the same count for every
position, so the analysis is independent of the machine's load). Positions are read in order
until the first move of NAME (default: the engine that is not the analyser's name in the
results, `new` if ambiguous) whose value, by the analyser, is at least `--drop` centipawns
(default 400) below the analyser's best in that position, or until NAME's position is worse
than `-level` (default 300) without such a move.

Every lost game gets one class:

- `clock`        lost on time (or hung), whatever the position;
- `opening`      already worse than `-level` at the end of the opening;
- `mate-missed`  NAME had a forced mate and played a move that gives it up;
- `mate-allowed` NAME's move lets the opponent mate by force (a mate threat, 詰めろ, not seen,
                 or a check sequence); split by the length of the mate: `-short` (at most 7
                 plies after the move) and `-long`;
- `tactical`     one move loses `--drop` or more, without a mate in sight, and leaves NAME
                 behind (a drop from +1700 to +1300 is no cause of a loss);
- `drift`        no single move loses `--drop`: the position slid below `-level` (what came
                 after, a later blunder in a worse position included, is not the cause).

Prints one line per game (id, class, ply, the move, the analyser's best, the values) and the
counts per class; `--out FILE` also writes them as JSON lines (written to FILE.tmp, then renamed).
Runs `--jobs` analysers at once (default 1: on a 2-core machine, do not run it beside a match).
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

MATE = 32000
MATE_BOUND = 30000

# CSA piece names and their USI drop letters.
DROP = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}
PROMOTED = {"TO", "NY", "NK", "NG", "UM", "RY"}
FILES = "123456789"
RANKS = "abcdefghi"

# The starting position's pieces, CSA square (file, rank) -> CSA piece name.
START = {}
for f in range(1, 10):
    START[(f, 3)] = "FU"
    START[(f, 7)] = "FU"
for f, p in zip(range(1, 10), ["KY", "KE", "GI", "KI", "OU", "KI", "GI", "KE", "KY"]):
    START[(f, 1)] = p
    START[(f, 9)] = p
START[(2, 2)] = "KA"
START[(8, 2)] = "HI"
START[(8, 8)] = "KA"
START[(2, 8)] = "HI"


def csa_moves(text):
    """The record's moves as USI strings, with the score comment after each (Black's view)."""
    board = dict(START)
    out = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^[+-](\d)(\d)(\d)(\d)([A-Z]{2})", line)
        if not m:
            continue
        ff, fr, tf, tr, piece = int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5]
        to = FILES[tf - 1] + RANKS[tr - 1]
        if ff == 0:
            usi = f"{DROP[piece]}*{to}"
        else:
            before = board.pop((ff, fr), piece)
            usi = FILES[ff - 1] + RANKS[fr - 1] + to
            if piece in PROMOTED and before not in PROMOTED:
                usi += "+"
        board[(tf, tr)] = piece
        out.append(usi)
    return out


def opening_plies(text):
    m = re.search(r"^'opening: (\d+) plies", text, re.M)
    return int(m.group(1)) if m else 0


class Analyser:
    """One USI engine process, asked for a fixed-node value of positions."""

    def __init__(self, path, nodes, options):
        path = os.path.abspath(path)
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                  cwd=os.path.dirname(os.path.abspath(path)))
        self.nodes = nodes
        self.send("usi")
        self.wait("usiok")
        for k, v in options:
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait("readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("analyser exited")
            line = line.strip()
            lines.append(line)
            if line.startswith(token):
                return lines

    def value(self, moves, searchmoves=None):
        """(value for the side to move, best move, pv) of startpos + moves."""
        self.send("usinewgame")
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        go = f"go nodes {self.nodes}"
        if searchmoves:
            go += " searchmoves " + searchmoves
        self.send(go)
        lines = self.wait("bestmove")
        best = lines[-1].split()[1]
        value, pv = None, []
        for line in lines:
            # The last score, bound or not: a search stopped by its node limit often ends on
            # a fail low or high, and its bound is still the best word the analyser has.
            m = re.search(r"score (cp|mate) (-?\d+|[+-])", line)
            if not m:
                continue
            if m[1] == "cp":
                value = int(m[2])
            else:
                n = m[2]
                n = 1 if n == "+" else -1 if n == "-" else int(n)
                value = MATE - abs(n) if n > 0 else -(MATE - abs(n))
            pm = re.search(r" pv (.*)$", line)
            pv = pm[1].split() if pm else []
        if best == "resign":
            value = -MATE
        elif best == "win":
            value = MATE
        return (value if value is not None else 0), best, pv

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def mate_plies(v):
    return MATE - abs(v)


def classify(game, text, analyser, args):
    """The class of one lost game and where it happened."""
    entry = {"id": game["id"], "opening": game["opening"], "reason": game["reason"]}
    if game["reason"] in ("time_loss", "hang"):
        return dict(entry, cls="clock")
    moves = csa_moves(text)
    start = opening_plies(text)
    side = 0 if game["black"] == args.engine else 1
    ply = start
    first = True
    while ply < len(moves):
        if ply % 2 != side:
            ply += 1
            continue
        best_v, best_m, _ = analyser.value(moves[:ply])
        if best_v <= -args.level:
            return dict(entry, cls="opening" if first else "drift", ply=ply, value=best_v)
        first = False
        played = moves[ply]
        if played == best_m:
            ply += 1
            continue
        played_v, _, pv = analyser.value(moves[:ply], searchmoves=played)
        drop = best_v - played_v
        found = dict(entry, ply=ply, move=played, best=best_m, value=best_v, played=played_v,
                     pv=" ".join(pv[:8]), position="startpos moves " + " ".join(moves[:ply]))
        if best_v >= MATE_BOUND and played_v < MATE_BOUND:
            return dict(found, cls="mate-missed", mate=mate_plies(best_v))
        if played_v <= -MATE_BOUND and best_v > -MATE_BOUND:
            n = mate_plies(played_v) - 1
            return dict(found, cls="mate-allowed-short" if n <= 7 else "mate-allowed-long",
                        mate=n)
        if drop >= args.drop and best_v < MATE_BOUND and played_v < 0:
            return dict(found, cls="tactical")
        ply += 1
    return dict(entry, cls="drift", ply=ply)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("analyser")
    ap.add_argument("--engine", default=None)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--drop", type=int, default=400)
    ap.add_argument("--level", type=int, default=300)
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--option", action="append", default=[],
                    help="NAME=VALUE, a setoption for the analyser (repeatable)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    games = []
    with open(os.path.join(args.run_dir, "results.jsonl")) as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    if not games:
        sys.exit("no games in " + args.run_dir)
    names = sorted({g["black"] for g in games} | {g["white"] for g in games})
    if args.engine is None:
        args.engine = "new" if "new" in names else names[0]
    lost = []
    for g in games:
        r = g["result"]
        if args.engine not in (g["black"], g["white"]):
            continue
        if (r == "white" and g["black"] == args.engine) or (r == "black" and g["white"] == args.engine):
            lost.append(g)
    print(f"{len(games)} games, {len(lost)} lost by {args.engine}; analyser {args.analyser} at "
          f"{args.nodes} nodes", flush=True)

    options = [("USI_Hash", args.hash), ("Threads", 1)]
    for o in args.option:
        k, _, v = o.partition("=")
        options.append((k, v))

    def work(chunk):
        a = Analyser(args.analyser, args.nodes, options)
        out = []
        try:
            for g in chunk:
                with open(os.path.join(args.run_dir, g["record"]), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                r = classify(g, text, a, args)
                print(json.dumps(r, ensure_ascii=False), flush=True)
                out.append(r)
        finally:
            a.close()
        return out

    chunks = [lost[i::args.jobs] for i in range(args.jobs)]
    with ThreadPoolExecutor(args.jobs) as ex:
        results = [r for part in ex.map(work, chunks) for r in part]
    results.sort(key=lambda r: r["id"])
    counts = {}
    for r in results:
        counts[r["cls"]] = counts.get(r["cls"], 0) + 1
    print("classes:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    if args.out:
        tmp = args.out + ".tmp"
        with open(tmp, "w") as f:
            for r in results:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
