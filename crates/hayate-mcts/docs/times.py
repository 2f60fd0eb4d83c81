import sys, glob, re, statistics
# Per-move times of one engine from the arena's CSA records: N+/N- names, T<seconds> after each move.
name = sys.argv[2]
times = []
losses = 0
for f in glob.glob(sys.argv[1] + "/games/*.csa"):
    lines = open(f, encoding="utf-8").read().splitlines()
    side = None
    for l in lines:
        if l.startswith("N+") and l[2:] == name: side = "+"
        if l.startswith("N-") and l[2:] == name: side = "-"
    mover = None
    for l in lines:
        if l[:1] in "+-" and len(l) >= 7 and l[1].isdigit():
            mover = l[0]
        elif l.startswith("T") and mover == side:
            times.append(float(l[1:]) * 1000)
        elif l.startswith("%TIME_UP") and mover is not None:
            pass
    txt = "\n".join(lines)
    if "%TIME_UP" in txt:
        losses += 1
times.sort()
q = lambda p: times[min(len(times) - 1, int(p * len(times)))]
print(f"{name}: {len(times)} moves, mean {statistics.mean(times):.0f} ms, median {statistics.median(times):.0f} ms, p90 {q(0.9):.0f}, p99 {q(0.99):.0f}, max {max(times):.0f}; over 300: {sum(t > 300 for t in times)}, over 225: {sum(t > 225 for t in times)}; games with %TIME_UP: {losses}")
