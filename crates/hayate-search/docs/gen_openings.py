#!/usr/bin/env python3
import subprocess, sys, random, re
eng, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(seed)
p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
def wait(tok):
    out=[]
    while True:
        l=p.stdout.readline()
        if not l: raise SystemExit('engine died')
        l=l.strip(); out.append(l)
        if l.startswith(tok): return out
send("usi"); wait("usiok"); send("setoption name USI_Hash value 16"); send("setoption name MultiPV value 8"); send("isready"); wait("readyok")
seen=set(); res=[]
while len(res)<n:
    moves=[]; plies=random.randint(8,14); ok=True
    for i in range(plies):
        send("position startpos moves "+" ".join(moves)); send("go depth 3")
        out=wait("bestmove"); cand={}
        for l in out:
            m=re.search(r"depth 3 .*multipv (\d+) score cp (-?\d+) pv (\S+)", l)
            if m: cand[m.group(3)]=int(m.group(2))
        if not cand: ok=False; break
        best=max(cand.values()); c=[mv for mv,s in cand.items() if s>=best-60]
        moves.append(random.choice(c))
    if not ok: continue
    send("position startpos moves "+" ".join(moves)); send("go depth 6")
    out=wait("bestmove"); sc=None
    for l in out:
        m=re.search(r"depth 6 .*multipv 1 score cp (-?\d+)", l)
        if m: sc=int(m.group(1))
    key=" ".join(moves)
    if sc is None or abs(sc)>150 or key in seen: continue
    seen.add(key); res.append("startpos moves "+key); print(res[-1], flush=True)
send("quit")

