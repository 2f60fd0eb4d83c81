"""random_children.py OUT PSV...: 20,000 positions drawn from psv files (not in check) and one
and two uniformly random legal plies after each (as a full-width search meets them), as SFEN
lines in OUT/games.sfen, OUT/ply1.sfen, OUT/ply2.sfen (positions in check left out). Needs
cshogi and numpy. Score the files with `hayate eval --sfen-file`."""
import random, sys
import numpy as np
import cshogi

rng = random.Random(15)
out = sys.argv[1]
recs = np.concatenate([np.fromfile(f, dtype=cshogi.PackedSfenValue) for f in sys.argv[2:]])
idx = rng.sample(range(len(recs)), 20000)
board = cshogi.Board()
games, kids1, kids2 = [], [], []
for i in idx:
    board.set_psfen(recs[i]["sfen"])
    if board.is_check():
        continue
    games.append(board.sfen())
    moves = list(board.legal_moves)
    if not moves:
        continue
    board.push(rng.choice(moves))
    if not board.is_check():
        kids1.append(board.sfen())
    moves = list(board.legal_moves)
    if moves:
        board.push(rng.choice(moves))
        if not board.is_check():
            kids2.append(board.sfen())
for name, lines in [("games", games), ("ply1", kids1), ("ply2", kids2)]:
    with open(f"{out}/{name}.sfen", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(name, len(lines))
