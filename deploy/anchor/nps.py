#!/usr/bin/env python3
# nps and depth of engines on positions from real games (`position ...` lines or bare SFENs,
# e.g. plies 40 and 70 of a run's records via `hayate convert RUN/games out.sfen`):
# `go movetime MS`, 1 thread, hash 256; engines alternate position by position so that they
# meet the same load.
#
#   python3 deploy/anchor/nps.py MS POSITIONS ENGINE[@Option=value,...]...
#
# e.g. `.../hayate@EvalType=nnue,EvalDir=DIR .../yaneuraou-nnue@EvalDir=DIR` for one net.
import subprocess, sys, re

ms = int(sys.argv[1])
positions = [l.strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
specs = sys.argv[3:]


def start(spec):
    path, _, opts = spec.partition("@")
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(tok):
        while True:
            l = p.stdout.readline()
            if not l:
                raise SystemExit(f"{path} died")
            if l.startswith(tok):
                return l

    send("usi")
    wait("usiok")
    own = [f"{k} value {v}" for k, v in (x.split("=", 1) for x in opts.split(",") if x)]
    for o in ["USI_Hash value 256", "Threads value 1", "BookFile value no_book", "NetworkDelay value 0",
              "NetworkDelay2 value 0", "MinimumThinkingTime value 0"] + own:
        send("setoption name " + o)
    send("isready")
    wait("readyok")
    return p, send, wait


es = [start(s) for s in specs]
tot = [[0, 0, 0] for _ in specs]
for pos in positions:
    cmd = pos if pos.startswith(("startpos", "sfen ")) else "sfen " + pos
    for i, (p, send, wait) in enumerate(es):
        send("usinewgame")
        send("isready")
        wait("readyok")
        send("position " + cmd)
        send(f"go movetime {ms}")
        last, depth = None, 0
        while True:
            l = p.stdout.readline()
            if l.startswith("info") and " nodes " in l and " time " in l:
                last = l
            m = re.search(r" depth (\d+)", l)
            if l.startswith("info") and m and " pv " in l:
                depth = int(m.group(1))
            if l.startswith("bestmove"):
                break
        tot[i][0] += int(re.search(r" nodes (\d+)", last).group(1))
        tot[i][1] += int(re.search(r" time (\d+)", last).group(1))
        tot[i][2] += depth
for s, (n, t, d) in zip(specs, tot):
    print(f"{s}: {n} nodes in {t} ms: {n * 1000 // max(t, 1)} nps, mean depth {d / len(positions):.2f}")
for p, send, wait in es:
    send("quit")
