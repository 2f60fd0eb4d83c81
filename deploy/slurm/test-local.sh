#!/usr/bin/env bash
# The loop on a one-node Slurm cluster on this machine (local-cluster.sh): an array of 4
# self-play workers -> training -> gate, run by the supervisor. While it runs, one worker is
# killed with `kill -9` in the middle of a shard. Checks: no partial shard is ever visible, the
# supervisor resubmits that index, the killed index's shards are byte for byte those of an
# undisturbed run, the data trained on is the sum of all shards, the gate decides and publishes
# the net by content hash, and the loop finishes. A second generation then plays with the
# published net (RUN/current), fine-tunes it and publishes the next one.
#
#   deploy/slurm/test-local.sh        (as root; installs slurm-wlm and munge when missing)
# HAYATE: the binary (default target/release/hayate; build it with cargo build --release).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
: "${HAYATE:=$repo/target/release/hayate}"
if [[ ! -x $HAYATE ]]; then
  echo "no binary at $HAYATE: build it first (cargo build --release)" >&2
  exit 1
fi
HAYATE=$(cd "$(dirname "$HAYATE")" && pwd)/$(basename "$HAYATE")
export HAYATE
t0=$(date +%s)

export SLURM_LOCAL_DIR=${SLURM_LOCAL_DIR:-/tmp/hayate-slurm}
"$here/local-cluster.sh" start
supervisor_pid=
cleanup() {
  if [[ -n $supervisor_pid ]]; then kill "$supervisor_pid" 2>/dev/null || true; fi
  "$here/local-cluster.sh" stop
}
trap cleanup EXIT
eval "$("$here/local-cluster.sh" env)"

# A small loop: 4 workers x 1500 positions in shards of 500 (a shard file fills in 8 KiB
# writes: 205 positions), kkpee9 at depth 8; one epoch of
# training; a 4-game gate at depth 2 that publishes whatever it gets (GATE_MIN_SCORE=0), so the
# publishing path runs too.
export RUN=$SLURM_LOCAL_DIR/run
export WORKERS=4 PARALLEL=4 THREADS=1 POSITIONS=1500 SHARD_SIZE=500 DEPTH=8 SEED=7
export BOOTSTRAP_EVAL=kkpee9 EPOCHS=1 TRAIN_THREADS=2 TRAIN_ARGS="--batch 256 --warmup 2"
export GATE_GAMES=4 GATE_CONCURRENCY=2 GATE_BYOYOMI=1000 GATE_GO="depth 2" GATE_MIN_SCORE=0
export POLL=2 GRACE=4 MAX_RETRIES=2
rm -rf "$RUN"
mkdir -p "$RUN"
victim=1
k=$(((POSITIONS + SHARD_SIZE - 1) / SHARD_SIZE))
data=$RUN/gen-000/data
shard() { printf '%s/shard-%06d.psv' "$data" "$1"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# Every visible shard is whole.
check_whole() {
  local f
  for f in "$data"/shard-*.psv; do
    [[ -e $f ]] || continue
    [[ $(stat -c %s "$f") == $((SHARD_SIZE * 40)) ]] || fail "partial shard visible: $f"
  done
}

"$here/supervisor.sh" 0 >"$RUN/supervisor.log" 2>&1 &
supervisor_pid=$!

# Wait until the victim is in the middle of its second shard, then kill its hayate process.
first=$(shard $((victim * k)))
second=$(shard $((victim * k + 1)))
for _ in $(seq 1200); do
  [[ -e $first && -s $second.tmp ]] && break
  kill -0 "$supervisor_pid" || fail "the supervisor ended early: $(tail "$RUN/supervisor.log")"
  sleep 0.1
done
[[ -e $first && -s $second.tmp ]] || fail "worker $victim never got to its second shard"
job=$(squeue -h -r -n "hy-run-sp-0" -o '%A %K' | awk -v i="$victim" '$2 == i {print $1}')
[[ -n $job ]] || fail "worker $victim is not in the queue"
pid=$(scontrol listpids "$job" | awk 'NR > 1 {print $1}' |
  while read -r p; do [[ $(cat "/proc/$p/comm" 2>/dev/null) == hayate ]] && echo "$p"; done | head -1)
[[ -n $pid ]] || fail "no hayate process in job $job"
kill -9 "$pid"
echo "killed worker $victim (job $job, pid $pid) with $(stat -c %s "$second.tmp") bytes of $(basename "$second") written"
sleep 1
[[ ! -e $second ]] || fail "the killed shard is visible"
check_whole

# Watch until the supervisor finishes: no partial shard may appear meanwhile.
while kill -0 "$supervisor_pid" 2>/dev/null; do
  check_whole
  sleep 0.5
done
wait "$supervisor_pid" || fail "supervisor failed: $(tail "$RUN/supervisor.log")"
supervisor_pid=
cat "$RUN/supervisor.log"

grep -q "resubmitted index $victim " "$RUN/supervisor.log" || fail "index $victim was not resubmitted"
check_whole
n=$(find "$data" -name 'shard-*.psv' | wc -l)
[[ $n == $((WORKERS * k)) ]] || fail "$n shards, expected $((WORKERS * k))"
[[ -z $(find "$data" -name '*.tmp') ]] || fail "a temporary file is left"
sum=$(cat "$data"/shard-*.psv | wc -c)
trained=$(cat "$RUN/gen-000/train-positions")
[[ $sum == $((WORKERS * POSITIONS * 40)) && $trained == $((sum / 40)) ]] ||
  fail "data $sum bytes, trained on $trained positions; expected $((WORKERS * POSITIONS)) positions"

# The resubmitted index wrote the same shards as an undisturbed run of that index.
ref=$SLURM_LOCAL_DIR/reference
rm -rf "$ref"
nice -n 15 "$HAYATE" selfplay --out "$ref" --format psv --eval "$BOOTSTRAP_EVAL" --depth "$DEPTH" \
  --positions "$POSITIONS" --shard-size "$SHARD_SIZE" --threads 1 --seed $((SEED * 1000)) \
  --shard-index "$victim" --quiet >/dev/null 2>&1
for ((s = victim * k; s < (victim + 1) * k; s++)); do
  cmp -s "$(shard "$s")" "$(printf '%s/shard-%06d.psv' "$ref" "$s")" ||
    fail "shard $s differs from an undisturbed run"
done

# The gate published the net by its content hash.
decision=$(cat "$RUN/gen-000/gate/decision")
hash=$(sha256sum "$RUN/gen-000/train/nn.bin" | cut -d' ' -f1)
[[ $decision == "promoted $hash "* ]] || fail "gate decision: $decision"
[[ $(readlink "$RUN/current") == "models/$hash.bin" ]] || fail "current -> $(readlink "$RUN/current")"
cmp -s "$RUN/current" "$RUN/gen-000/train/nn.bin" || fail "the published net differs"

echo "generation 0 passed: $WORKERS workers, $n shards, $trained positions trained on, worker" \
  "$victim killed and resubmitted, gate: $decision; $(($(date +%s) - t0)) s"

# Generation 1 plays with the published net (RUN/current, followed between games), at depth 4
# (a setting changed between generations in RUN/config.sh), fine-tunes it on the data of both
# generations and gates the result against it.
echo "DEPTH=4" >"$RUN/config.sh"
"$here/supervisor.sh" 1 >"$RUN/supervisor-1.log" 2>&1 ||
  fail "supervisor failed: $(tail "$RUN/supervisor-1.log")"
cat "$RUN/supervisor-1.log"
g1=$RUN/gen-001
followed=$(grep -l -- "--nnue $RUN/current" "$g1"/logs/selfplay-*.out | wc -l)
[[ $followed == "$WORKERS" ]] || fail "$followed of $WORKERS workers played with RUN/current"
grep -q "starting from $RUN/models/$hash.bin" "$g1"/logs/train-*.out || fail "training did not start from $hash"
[[ $(cat "$g1/train-positions") == $((2 * WORKERS * POSITIONS)) ]] || fail "generation 1 trained on $(cat "$g1/train-positions") positions"
hash1=$(sha256sum "$g1/train/nn.bin" | cut -d' ' -f1)
[[ $(cat "$g1/gate/decision") == "promoted $hash1 "* ]] || fail "gate 1: $(cat "$g1/gate/decision")"
grep -q "EvalFile = \"$RUN/models/$hash.bin\"" "$g1/gate/engines.toml" || fail "gate 1 did not play the published net"
[[ $(readlink "$RUN/current") == "models/$hash1.bin" ]] || fail "current -> $(readlink "$RUN/current")"
[[ $(find "$RUN/models" -name '*.bin' | wc -l) == 2 && $(wc -l <"$RUN/models.log") == 2 ]] ||
  fail "models: $(ls "$RUN/models")"

echo "PASS: generation 0 (worker $victim killed and resubmitted; $trained positions) and" \
  "generation 1 (played with the published net, fine-tuned from it); $(($(date +%s) - t0)) s"
