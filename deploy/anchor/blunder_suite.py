#!/usr/bin/env python3
"""How often an engine repeats the costly moves `classify_losses.py` found.

    blunder_suite.py CLASSES_JSONL RUN_DIR ENGINE [--nodes N ...] [--class C ...] [--option K=V ...]

RUN_DIR may be `-` when every line carries its `position` (classify_losses.py writes it), as
`losses-b200.jsonl` beside this script does.

For each classified loss with a move (`tactical`, `mate-allowed-*`, `mate-missed`), sets up the
position before the costly move and asks ENGINE (any USI engine: Hayate, YaneuraOu) for its move
at `go nodes N` (several N may be given). Prints, per N, how many of the positions ENGINE
answers with the same costly move, and the positions where it does. A search change that finds
the refutation more often at the node counts of a real game repeats fewer of them; comparing
with the anchor at the same N shows what a search of that size can see. Equal nodes: the result
does not depend on the machine's load.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify_losses import Analyser, csa_moves  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("classes")
    ap.add_argument("run_dir")
    ap.add_argument("engine")
    ap.add_argument("--nodes", type=int, action="append", default=[])
    ap.add_argument("--class", dest="classes_kept", action="append", default=[])
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--option", action="append", default=[])
    args = ap.parse_args()
    nodes = args.nodes or [300_000]
    kept = set(args.classes_kept) or {"tactical", "mate-allowed-short", "mate-allowed-long",
                                      "mate-missed"}
    cases = []
    results = {}
    if args.run_dir != "-":
        with open(os.path.join(args.run_dir, "results.jsonl")) as f:
            for line in f:
                if line.strip():
                    g = json.loads(line)
                    results[g["id"]] = g
    with open(args.classes) as f:
        for line in f:
            r = json.loads(line)
            if r.get("cls") not in kept or "move" not in r:
                continue
            if "position" in r:
                moves = r["position"].split()[2:]
            else:
                with open(os.path.join(args.run_dir, results[r["id"]]["record"]),
                          encoding="utf-8", errors="replace") as g:
                    moves = csa_moves(g.read())[: r["ply"]]
            cases.append((r, moves))
    options = [("USI_Hash", args.hash), ("Threads", 1)]
    for o in args.option:
        k, _, v = o.partition("=")
        options.append((k, v))
    for n in nodes:
        a = Analyser(args.engine, n, options)
        repeated = []
        for r, moves in cases:
            _, best, _ = a.value(moves)
            if best == r["move"]:
                repeated.append(f"{r['id']}@{r['ply']}:{r['move']}")
        a.close()
        print(f"nodes {n}: repeats {len(repeated)} of {len(cases)} costly moves; "
              f"{' '.join(repeated)}", flush=True)


if __name__ == "__main__":
    main()
