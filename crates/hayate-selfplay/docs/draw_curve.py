#!/usr/bin/env python3
"""The draw rate of an MCTS self-play run, game by game, from its sidecars.

    python3 draw_curve.py DATA_DIR [OUT.svg]

Games are put in the run's order by `scored_before` (the games scored when each began). Prints,
every tenth of the run, the running share of games scored as draws (what Novice's control
holds near its target) and of games really drawn; with OUT.svg, draws both curves.
"""
import json
import pathlib
import sys


def main():
    data = pathlib.Path(sys.argv[1])
    games = []
    for f in sorted(data.glob("*.games.jsonl")):
        games += [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
    games.sort(key=lambda g: g.get("scored_before", 0))
    scored, real, rows = 0, 0, []
    for i, g in enumerate(games, 1):
        scored += g["scored"] == "draw"
        real += g["result"] == "draw"
        rows.append((i, 100.0 * scored / i, 100.0 * real / i))
    step = max(1, len(rows) // 10)
    print("| games | scored draws % | of the last 20 | real draws % | controlled games |")
    print("|---|---|---|---|---|")
    for i, s, r in rows[step - 1 :: step] + ([rows[-1]] if len(rows) % step else []):
        controlled = sum(1 for g in games[:i] if g["draw_value"] != [0.5, 0.5])
        last = games[max(0, i - 20) : i]
        recent = 100.0 * sum(g["scored"] == "draw" for g in last) / len(last)
        print(f"| {i} | {s:.1f} | {recent:.1f} | {r:.1f} | {controlled} |")
    if len(sys.argv) > 2:
        w, h, m = 480, 300, 45
        top = max(max(r[1], r[2]) for r in rows) or 1
        px = lambda i: m + (i - 1) / max(1, len(rows) - 1) * (w - 2 * m)
        py = lambda y: h - m - y / top * (h - 2 * m)
        line = lambda k: " ".join(f"{px(r[0]):.1f},{py(r[k]):.1f}" for r in rows)
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'font-family="sans-serif" font-size="12">'
            f'<rect x="{m}" y="{m}" width="{w-2*m}" height="{h-2*m}" fill="none" stroke="#888"/>'
            f'<text x="{m}" y="25">running draw rate (%) by game; target 2 %</text>'
            f'<line x1="{m}" x2="{w-m}" y1="{py(2):.1f}" y2="{py(2):.1f}" stroke="#c33" stroke-dasharray="4"/>'
            f'<polyline points="{line(1)}" fill="none" stroke="#36c" stroke-width="2"/>'
            f'<polyline points="{line(2)}" fill="none" stroke="#999"/>'
            f'<text x="{w-m-150}" y="{m+15}" fill="#36c">scored as draws</text>'
            f'<text x="{w-m-150}" y="{m+30}" fill="#999">really drawn</text>'
            f'<text x="5" y="{py(top)+4:.1f}">{top:.0f}</text><text x="5" y="{py(0):.1f}">0</text>'
            f'<text x="{w/2-20}" y="{h-15}">games ({len(rows)})</text></svg>\n'
        )
        pathlib.Path(sys.argv[2]).write_text(svg)


if __name__ == "__main__":
    main()
