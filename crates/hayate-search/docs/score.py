#!/usr/bin/env python3
import json, sys, math
f=sys.argv[1]; me=sys.argv[2] if len(sys.argv)>2 else "new"
w=l=d=0; reasons={}
for line in open(f):
    g=json.loads(line)
    if me not in (g["black"], g["white"]): continue  # a gauntlet's other pairs
    r=g["result"]; reasons[g["reason"]]=reasons.get(g["reason"],0)+1
    if r=="draw": d+=1
    elif g[r]==me: w+=1
    else: l+=1
n=w+l+d; s=(w+d/2)/n if n else 0
def elo(p): return -400*math.log10(1/p-1) if 0<p<1 else float('nan')
var=((w*(1-s)**2+l*s**2+d*(0.5-s)**2)/n) if n else 0
se=math.sqrt(var/n) if n else 0
print(f"games {n} +{w} ={d} -{l} score {s:.3f} elo {elo(s):.0f} +- {elo(min(s+1.96*se,0.999))-elo(s):.0f} reasons {reasons}")
# The arena's LLR (elo0 0, elo1 10 unless given as argv[3], argv[4]); bounds -2.94 / +2.94.
e0=float(sys.argv[3]) if len(sys.argv)>3 else 0.0; e1=float(sys.argv[4]) if len(sys.argv)>4 else 10.0
es=lambda e: 1/(1+10**(-e/400))
if n and var>0: print(f"llr {n*(es(e1)-es(e0))*(2*s-es(e0)-es(e1))/(2*var):.2f} (elo0 {e0:g} elo1 {e1:g}, bounds -2.94 +2.94)")
