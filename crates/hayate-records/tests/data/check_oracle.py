"""Cross-checks files Hayate wrote (cargo test --release -p hayate-records --test convert --
--ignored write_oracle_files) with cshogi and an independent hcpe3 reader. Run by hand:
    python check_oracle.py /tmp/hayate-records-oracle
"""
import struct
import sys

import cshogi
import numpy as np

d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/hayate-records-oracle"

# psv: cshogi loads every record; the position and move match what Hayate printed.
psv = np.fromfile(f"{d}/out.psv", dtype=cshogi.PackedSfenValue)
hcpe = np.fromfile(f"{d}/out.hcpe", dtype=cshogi.HuffmanCodedPosAndEval)
lines = open(f"{d}/out.psv.txt").read().splitlines()
assert len(psv) == len(lines) == len(hcpe), (len(psv), len(lines), len(hcpe))
b = cshogi.Board()
for rec, h, line in zip(psv, hcpe, lines):
    sfen, usi = line.split("\t")
    b.set_psfen(rec["sfen"])
    # set_psfen does not take the move number; psv keeps it in gamePly.
    assert b.sfen().split()[:3] == sfen.split()[:3], (b.sfen(), sfen)
    assert int(rec["gamePly"]) == int(sfen.split()[3])
    m = b.move_from_psv(int(rec["move"]))
    assert cshogi.move_to_usi(m) == usi and b.is_legal(m), (usi, sfen)
    b.set_hcp(h["hcp"])
    assert b.sfen().split()[:3] == sfen.split()[:3]
    m = b.move_from_move16(int(h["bestMove16"]) & 0xffff)
    assert cshogi.move_to_usi(m) == usi
print(f"psv and hcpe: {len(psv)} records match cshogi")

# hcpe3: dlshogi's layout read with struct, replayed with cshogi, visit counts unchanged.
data = open(f"{d}/out.hcpe3", "rb").read()
expected = open(f"{d}/out.hcpe3.txt").read().splitlines()
off = 0
k = 0
games = 0
while off < len(data):
    hcp = np.frombuffer(data[off:off + 32], dtype=np.uint8)
    move_num, result, opponent = struct.unpack_from("<HBB", data, off + 32)
    assert move_num <= 513 and result & 3 != 3 and opponent <= 2
    off += 36
    b.set_hcp(hcp)
    for _ in range(move_num):
        m16, ev, n = struct.unpack_from("<HhH", data, off)
        off += 6
        cands = []
        for _ in range(n):
            c16, visits = struct.unpack_from("<HH", data, off)
            off += 4
            cands.append(f"{cshogi.move_to_usi(b.move_from_move16(c16))}:{visits}")
        sfen, usi, cand_text = expected[k].split("\t")
        assert b.sfen().split()[:3] == sfen.split()[:3]
        m = b.move_from_move16(m16)
        assert cshogi.move_to_usi(m) == usi and b.is_legal(m)
        assert " ".join(cands) == cand_text
        b.push(m)
        k += 1
    games += 1
assert off == len(data) and k == len(expected)
print(f"hcpe3: {games} games, {k} positions, visit counts unchanged")

# Game records: cshogi's parsers read Hayate's CSA, KIF (cp932) and KI2 (cp932).
from cshogi import CSA, KIF, KI2

n = 0
for line in open(f"{d}/games.txt").read().splitlines():
    gi, start, usi = line.split("\t")
    want = usi.split()
    initial = start.split()[:3] == cshogi.STARTING_SFEN.split()[:3]
    for ext, parser in (("csa", CSA.Parser), ("kif", KIF.Parser), ("ki2", KI2.Parser)):
        if ext != "csa" and not initial:
            # cshogi's KIF and KI2 parsers ignore board diagrams (its KIF exporter writes them;
            # tests/non_initial_starts.rs reads those exports).
            continue
        p = parser.parse_file(f"{d}/game{gi}.{ext}")
        p = p[0] if isinstance(p, list) else p
        # Compare through cshogi's Board: its CSA parser lists hands in file order.
        got_start = cshogi.Board(sfen=p.sfen).sfen().split()[:3]
        assert got_start == cshogi.Board(sfen=start).sfen().split()[:3], (ext, gi, p.sfen, start)
        got = [cshogi.move_to_usi(m) for m in p.moves]
        assert got == want, (ext, gi, got[:5], want[:5])
        n += 1
print(f"games: {n} files (CSA, KIF, KI2) read by cshogi with the same start and moves")
