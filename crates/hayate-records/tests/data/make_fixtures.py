"""Makes the fixture files the hayate-records tests compare against, with cshogi (PyPI 1.1.0)
as the independent oracle. Run once by hand:  python make_fixtures.py  (in this folder).

Outputs (all deterministic for the fixed seed):
  positions.tsv   1000 random positions: sfen, cshogi hcp (hex), cshogi psfen (hex), a legal move in USI, its
                  Apery/dlshogi move16 and its YaneuraOu psv move16
  sample.hcpe     cshogi HuffmanCodedPosAndEval records; sample.hcpe.tsv the expected fields
  sample.psv      cshogi PackedSfenValue records; sample.psv.tsv the expected fields
  sample.hcpe3    dlshogi hcpe3 layout written with struct (cshogi has no hcpe3 writer);
                  sample.hcpe3.txt the expected games
  game{N}.csa / .kif (cp932) / .kifu (UTF-8) / .ki2 (cp932): cshogi exporters; games.txt
                  lists each game's start SFEN, USI moves and ending
"""
import random
import struct
from datetime import datetime

import cshogi
import numpy as np
from cshogi import CSA, KIF, KI2

rng = random.Random(20261121)


def random_game(max_plies):
    b = cshogi.Board()
    moves = []
    for _ in range(max_plies):
        legal = list(b.legal_moves)
        if not legal:
            break
        # Prefer captures, promotions and drops a little so that hands and promoted
        # pieces appear often.
        interesting = [m for m in legal if cshogi.move_is_drop(m) or cshogi.move_is_promotion(m) or cshogi.move_cap(m)]
        m = rng.choice(interesting) if interesting and rng.random() < 0.5 else rng.choice(legal)
        moves.append(m)
        b.push(m)
    return moves


def hexs(a):
    return a.tobytes().hex()


# --- positions.tsv ---------------------------------------------------------------------
with open("positions.tsv", "w") as f:
    n = 0
    while n < 1000:
        moves = random_game(rng.randrange(0, 200))
        b = cshogi.Board()
        for m in moves:
            b.push(m)
        legal = list(b.legal_moves)
        if not legal:
            continue
        m = rng.choice(legal)
        hcp = np.zeros(1, cshogi.HuffmanCodedPos)
        b.to_hcp(hcp)
        ps = np.zeros(1, cshogi.PackedSfen)
        b.to_psfen(ps)
        m16 = cshogi.move16(m)
        f.write(f"{b.sfen()}\t{hexs(hcp)}\t{hexs(ps)}\t{cshogi.move_to_usi(m)}\t{m16}\t{cshogi.move16_to_psv(m16)}\n")
        n += 1

# --- sample.hcpe / sample.psv ------------------------------------------------------------
hcpes = np.zeros(200, cshogi.HuffmanCodedPosAndEval)
psvs = np.zeros(200, cshogi.PackedSfenValue)
with open("sample.hcpe.tsv", "w") as fh, open("sample.psv.tsv", "w") as fp:
    i = 0
    while i < 200:
        moves = random_game(rng.randrange(0, 160))
        b = cshogi.Board()
        for m in moves:
            b.push(m)
        legal = list(b.legal_moves)
        if not legal:
            continue
        m = rng.choice(legal)
        ev = rng.randrange(-32000, 32001)
        res = rng.randrange(0, 3)
        b.to_hcp(hcpes[i:i + 1]["hcp"])
        hcpes[i]["eval"] = ev
        hcpes[i]["bestMove16"] = cshogi.move16(m)
        hcpes[i]["gameResult"] = res
        fh.write(f"{b.sfen()}\t{ev}\t{cshogi.move_to_usi(m)}\t{res}\n")
        b.to_psfen(psvs[i:i + 1]["sfen"])
        psvs[i]["score"] = -ev
        psvs[i]["move"] = cshogi.move16_to_psv(cshogi.move16(m))
        psvs[i]["gamePly"] = b.move_number
        pres = res - 1
        psvs[i]["game_result"] = pres
        fp.write(f"{b.sfen()}\t{-ev}\t{cshogi.move_to_usi(m)}\t{b.move_number}\t{pres}\n")
        i += 1
hcpes.tofile("sample.hcpe")
psvs.tofile("sample.psv")

# --- sample.hcpe3 (dlshogi layout, written independently of Hayate) ----------------------
with open("sample.hcpe3", "wb") as fb, open("sample.hcpe3.txt", "w") as ft:
    for g in range(4):
        moves = random_game(rng.randrange(1, 120))
        b = cshogi.Board()
        hcp = np.zeros(1, cshogi.HuffmanCodedPos)
        b.to_hcp(hcp)
        result = rng.randrange(0, 3) | rng.choice([0, 0x4, 0x8, 0x10])
        opponent = rng.randrange(0, 3)
        fb.write(hcp.tobytes())
        fb.write(struct.pack("<HBB", len(moves), result, opponent))
        ft.write(f"game {b.sfen()} {len(moves)} {result} {opponent}\n")
        for m in moves:
            legal = list(b.legal_moves)
            ncand = 0 if rng.random() < 0.2 else rng.randrange(1, min(len(legal), 8) + 1)
            cands = rng.sample(legal, ncand)
            if ncand and m not in cands:
                cands[0] = m
            ev = rng.randrange(-30000, 30001)
            fb.write(struct.pack("<HhH", cshogi.move16(m), ev, ncand))
            line = f"move {cshogi.move_to_usi(m)} {ev}"
            for c in cands:
                v = rng.randrange(0, 65536)
                fb.write(struct.pack("<HH", cshogi.move16(c), v))
                line += f" {cshogi.move_to_usi(c)}:{v}"
            ft.write(line + "\n")
            b.push(m)

# --- CSA / KIF / KI2 exports ----------------------------------------------------------------
endings = [("%TORYO", "resign"), ("%SENNICHITE", "sennichite"), ("%KACHI", "win"), ("%TORYO", "resign")]
with open("games.txt", "w") as ft:
    for gi, (csa_end, kif_end) in enumerate(endings):
        moves = random_game(rng.randrange(10, 140))
        names = [f"black{gi}", f"white{gi}"]
        times = [rng.randrange(0, 30) for _ in moves]
        e = CSA.Exporter(f"game{gi}.csa")
        e.info(init_board=cshogi.STARTING_SFEN, names=names, var_info={"EVENT": f"fixture{gi}"}, version="V2.2")
        for m, t in zip(moves, times):
            e.move(m, time=t)
        e.endgame(csa_end, time=1)
        e.close()
        for ext in ("kif", "kifu"):
            k = KIF.Exporter(f"game{gi}.{ext}")
            k.header(names, starttime=datetime(2026, 11, 21, 12, 0, 0))
            total = 0
            for m, t in zip(moves, times):
                total += t
                k.move(m, sec=t, sec_sum=total)
            k.end(kif_end, sec=1, sec_sum=total + 1)
            k.close()
        k2 = KI2.Exporter(f"game{gi}.ki2")
        k2.header(names, starttime=datetime(2026, 11, 21, 12, 0, 0))
        for m in moves:
            k2.move(m)
        k2.end(csa_end)
        k2.close()
        ft.write(f"{gi}\t{csa_end}\t{' '.join(cshogi.move_to_usi(m) for m in moves)}\t{' '.join(map(str, times))}\n")

# --- Non-initial starts: CSA P1..P9/P+/P- and KIF board diagrams (BOD) ---------------------
# (appended last so that the files above stay byte-identical)
with open("games_bod.txt", "w") as ft:
    gi = 0
    while gi < 3:
        pre = random_game(rng.randrange(20, 90))
        b = cshogi.Board()
        for m in pre:
            b.push(m)
        if not list(b.legal_moves):
            continue
        start = b.sfen()
        moves = []
        for _ in range(rng.randrange(5, 40)):
            legal = list(b.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            b.push(m)
        e = CSA.Exporter(f"bod{gi}.csa")
        e.info(init_board=cshogi.Board(sfen=start), names=["b", "w"], version="V2.2")
        for m in moves:
            e.move(m)
        e.endgame("%CHUDAN")
        e.close()
        k = KIF.Exporter(f"bod{gi}.kifu")
        k.header(["b", "w"], starttime=datetime(2026, 11, 21, 12, 0, 0), handicap="sfen " + start)
        for m in moves:
            k.move(m)
        k.close()
        ft.write(f"{start}\t{' '.join(cshogi.move_to_usi(m) for m in moves)}\n")
        gi += 1
