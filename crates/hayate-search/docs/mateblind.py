#!/usr/bin/env python3
"""Which lost games were mates the loser did not see coming.

    mateblind.py RUN_DIR [ENGINE]

Reads an arena run (`results.jsonl` and the CSA records). The arena writes each engine's
centipawn score after its move (`'** N`, Black's view) and leaves it out for a mate score. For
each game ENGINE (default `new`) lost, it finds the opponent's first move after the opening
(the record's `'opening: N plies`; opening moves carry no score) without a score -- the
opponent announced a mate -- and ENGINE's own last score before it. Prints how many losses had
such an announcement, how many of those ENGINE still thought itself ahead, and the 20 worst as
(game id, ply, plies left, ENGINE's last score).
"""
import json
import re
import sys


def opening_plies(text):
    """The opening's length the arena wrote into the record (0 without one)."""
    m = re.search(r"^'opening: (\d+) plies", text, re.M)
    return int(m.group(1)) if m else 0


def moves_with_scores(text):
    """[(side, score from the mover's view or None)] for each move of a CSA record."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if not re.match(r"^[+-]\d{4}", line):
            continue
        side = "black" if line[0] == "+" else "white"
        score = None
        for follow in lines[i + 1 : i + 3]:
            m = re.match(r"^'\*\* (-?\d+)", follow)
            if m:
                score = int(m.group(1)) * (1 if side == "black" else -1)
        out.append((side, score))
    return out


def main():
    run = sys.argv[1]
    who = sys.argv[2] if len(sys.argv) > 2 else "new"
    losses = 0
    blind = []
    for line in open(f"{run}/results.jsonl"):
        g = json.loads(line)
        me = "black" if g["black"] == who else "white"
        opp = "white" if me == "black" else "black"
        if g["result"] != opp:
            continue
        losses += 1
        text = open(f"{run}/{g['record']}").read()
        opening = opening_plies(text)
        moves = moves_with_scores(text)
        for k, (side, score) in enumerate(moves):
            if k < opening or side != opp or score is not None:
                continue
            mine = [s for sd, s in moves[:k] if sd == me and s is not None]
            blind.append((g["id"], k, len(moves) - k, mine[-1] if mine else None))
            break
    ahead = [b for b in blind if b[3] is not None and b[3] > 0]
    print(f"losses {losses}, opponent announced a mate first {len(blind)}, "
          f"{who} still ahead then {len(ahead)}")
    for b in sorted(blind, key=lambda b: -(b[3] if b[3] is not None else -99999))[:20]:
        print(b)


if __name__ == "__main__":
    main()
