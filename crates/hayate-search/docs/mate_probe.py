"""Mate probe: positions k plies before the end of games won by checkmate, where cshogi
proves a mate within k plies for the side to move; each engine searches each at a fixed
movetime over USI; prints how many it finds as a mate score, and the mean time to it.
usage: mate_probe.py MOVETIME_MS SFEN_FILES... -- ENGINE[=OPT:VAL,...] ..."""
import sys, subprocess, time, cshogi
args = sys.argv[1:]
ms = int(args[0]); sep = args.index('--')
files, engines = args[1:sep], args[sep+1:]
pos = []
for f in files:
    for line in open(f):
        mv = line.split()[2:]
        b = cshogi.Board()
        for m in mv: b.push_usi(m)
        if not b.is_game_over(): continue
        n = len(mv)
        for k in (3, 5, 7):
            if n - k < 20: continue
            b = cshogi.Board()
            for m in mv[:n-k]: b.push_usi(m)
            if b.mate_move(k):
                pos.append((' '.join(mv[:n-k]), k))
print(len(pos), 'positions', {k: sum(1 for p in pos if p[1]==k) for k in (3,5,7)}, flush=True)
for e in engines:
    path, _, opts = e.partition('=')
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
    def wait(tok):
        while True:
            l = p.stdout.readline()
            if l.startswith(tok): return l
            yield_l.append(l)
    send('usi')
    yield_l=[]; wait('usiok')
    for o in filter(None, opts.split(',')):
        k, v = o.split(':', 1); send(f'setoption name {k} value {v}')
    send('isready'); wait('readyok')
    found = {3:0,5:0,7:0}; tot={3:0,5:0,7:0}; tmate=[]
    for moves, k in pos:
        send('usinewgame'); send('position startpos moves ' + moves)
        t0 = time.time(); send(f'go movetime {ms}')
        yield_l=[]; wait('bestmove')
        tot[k]+=1
        first=None
        for l in yield_l:
            w=l.split()
            if 'mate' in w and 'score' in w and not w[w.index('mate')+1].startswith('-'):
                first = int(w[w.index('time')+1]) if 'time' in w else 0; break
        if first is not None: found[k]+=1; tmate.append(first)
    send('quit')
    print(e, 'found', found, 'of', tot, 'mean ms to mate %.1f' % (sum(tmate)/max(1,len(tmate))), flush=True)
