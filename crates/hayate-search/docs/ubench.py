#!/usr/bin/env python3
"""ubench.py ENGINE DEPTH [NAME=VALUE ...]: `hayate bench`'s positions searched over USI, so
that hidden options (`Tune_<name>`) can be set; `usinewgame` before each position, 64 MB hash,
one thread. Prints the summed nodes, time and nps; with no options the node count is the
bench's (178,465 at depth 10 at b77b2a3)."""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CRATES = os.path.join(HERE, '..', '..')


def source(path):
    return open(os.path.join(CRATES, path), encoding='utf-8').read()


# The bench's list: `hayate_core::sfen::STARTPOS`, then its literal positions.
START = re.search(r'pub const STARTPOS: &str = "([^"]+)"', source('hayate-core/src/sfen.rs'))[1]
SFENS = [START] + re.findall(r'^    "([^"]+)",$', source('hayate-search/src/bench.rs'), re.M)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    engine, depth, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    last = ''

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    def wait(token):
        nonlocal last
        for line in p.stdout:
            if line.startswith('info') and ' nodes ' in line:
                last = line
            if line.startswith(token):
                return
        sys.exit(f'the engine ended before {token}')

    send('usi')
    wait('usiok')
    send('setoption name USI_Hash value 64')
    send('setoption name Threads value 1')
    for o in opts:
        name, value = o.split('=', 1)
        send(f'setoption name {name} value {value}')
    nodes = ms = 0
    for sfen in SFENS:
        send('usinewgame')
        send('position sfen ' + sfen)
        send('isready')
        wait('readyok')
        send(f'go depth {depth}')
        wait('bestmove')
        nodes += int(re.search(r' nodes (\d+)', last).group(1))
        ms += int(re.search(r' time (\d+)', last).group(1))
    send('quit')
    print(f'nodes {nodes} time_ms {ms} nps {nodes * 1000 // max(ms, 1)}')


main()
