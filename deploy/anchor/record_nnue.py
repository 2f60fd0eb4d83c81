#!/usr/bin/env python3
# Records reference values for crates/hayate-eval/tests/fixtures/nnue_sizes.txt:
#
#   deploy/anchor/record_nnue.py YANEURAOU_BIN HAYATE_BIN SHAPE SEED SFEN_FILE > lines
#
# writes "SHAPE SEED VALUE SFEN" per SFEN line: YaneuraOu's static evaluation (its `e`
# command) with Hayate's random net of SHAPE (`hayate nnue random SHAPE nn.bin --seed SEED`) as
# its nn.bin. YANEURAOU_BIN is YaneuraOu built for that architecture (build_yaneuraou.sh).
import subprocess, sys, os, re, shutil, tempfile
yo, hy, shape, seed, sfens = sys.argv[1:6]
d = tempfile.mkdtemp()
subprocess.run([hy, "nnue", "random", shape, os.path.join(d, "nn.bin"), "--seed", seed], check=True, stdout=subprocess.DEVNULL)
p = subprocess.Popen([yo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(pred):
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("yo died")
        if pred(l): return l
send("usi"); wait(lambda l: l.startswith("usiok"))
send(f"setoption name EvalDir value {d}"); send("setoption name USI_Hash value 16")
send("isready"); wait(lambda l: l.startswith("readyok"))
for sfen in [l.strip() for l in open(sfens) if l.strip() and not l.startswith('#')]:
    send(f"position sfen {sfen}"); send("e")
    l = wait(lambda l: "eval =" in l or "Error" in l or "error" in l)
    m = re.search(r"eval = (-?\d+)", l)
    if not m: raise SystemExit(f"no value: {l}")
    print(f"{shape} {seed} {m.group(1)} {sfen}")
send("quit"); p.wait(); shutil.rmtree(d)
