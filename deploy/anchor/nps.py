#!/usr/bin/env python3
# nps of engines on positions from real games (`position ...` lines, e.g. plies 40 and 70 of a
# run's records via `hayate convert RUN/games out.sfen`): `go movetime MS`, 1 thread, hash 256;
# engines alternate position by position so that they meet the same load.
#   python3 deploy/anchor/nps.py MS POSITIONS ENGINE...
import subprocess, sys, re
ms = int(sys.argv[1]); posfile = sys.argv[2]; engines = sys.argv[3:]
positions = [l.strip() for l in open(posfile) if l.strip()]
def start(path):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    def wait(tok):
        while True:
            l = p.stdout.readline()
            if not l: raise SystemExit(f"{path} died")
            if l.startswith(tok): return l
    send("usi"); wait("usiok")
    for o in ["USI_Hash value 256", "Threads value 1", "BookFile value no_book", "NetworkDelay value 0", "NetworkDelay2 value 0", "MinimumThinkingTime value 0"]:
        send("setoption name " + o)
    send("isready"); wait("readyok")
    return p, send, wait
es = [start(e) for e in engines]
tot = [[0, 0] for _ in engines]
for pos in positions:
    for i, (p, send, wait) in enumerate(es):
        send("usinewgame"); send("isready"); wait("readyok")
        send("position " + pos); send(f"go movetime {ms}")
        nodes = t = 0; last = None
        while True:
            l = p.stdout.readline()
            if l.startswith("info") and " nodes " in l and " time " in l:
                last = l
            if l.startswith("bestmove"): break
        m1 = re.search(r" nodes (\d+)", last); m2 = re.search(r" time (\d+)", last)
        tot[i][0] += int(m1.group(1)); tot[i][1] += int(m2.group(1))
for e, (n, t) in zip(engines, tot):
    print(f"{e}: {n} nodes in {t} ms: {n * 1000 // max(t, 1)} nps")
for p, send, wait in es: send("quit")
