# Settings of a Hayate loop on Slurm, sourced by submit.sh and supervisor.sh. Every value can
# be set in the environment instead (WORKERS=64 ./supervisor.sh ...), or in RUN/config.sh,
# which is read after the environment when it exists. The job scripts get them exported.
# shellcheck shell=bash

: "${RUN:?set RUN to the run directory on shared storage}"
if [[ -f $RUN/config.sh ]]; then
  # shellcheck source=/dev/null
  source "$RUN/config.sh"
fi

# The binary, on shared storage or installed on every node (absolute path or a name on PATH).
: "${HAYATE:=hayate}"
# Self-play: WORKERS array tasks (the task index is the shard index), at most PARALLEL at once,
# each with THREADS cores (games in parallel) and GPUS GPUs (for an MCTS player; αβ needs none).
: "${WORKERS:=4}"
: "${PARALLEL:=$WORKERS}"
: "${THREADS:=1}"
: "${GPUS:=0}"
# Positions per worker per generation, positions per shard, search per move.
: "${POSITIONS:=100000}"
: "${SHARD_SIZE:=10000}"
: "${DEPTH:=6}"
: "${SEED:=1}"
# The evaluation of generation 0's self-play and gate, before any net is published.
: "${BOOTSTRAP_EVAL:=kkpee9}"
# Training: threads, epochs, how many generations of data (the newest ones) it reads.
: "${TRAIN_THREADS:=4}"
: "${EPOCHS:=10}"
: "${WINDOW:=2}"
: "${TRAIN_ARGS:=}"
# Gate: the candidate plays GATE_GAMES against the current net (pairs of games with colours
# swapped), GATE_CONCURRENCY at once; it is published when it scores at least GATE_MIN_SCORE.
# GATE_GO replaces the clock by fixed work (e.g. "depth 4" or "nodes 20000").
: "${GATE_GAMES:=200}"
: "${GATE_CONCURRENCY:=2}"
: "${GATE_BYOYOMI:=100}"
: "${GATE_GO:=}"
: "${GATE_MIN_SCORE:=0.55}"
# Anything every sbatch call needs (partition, account, QOS, time limit).
: "${SBATCH_ARGS:=}"
# Supervisor: seconds between looks, seconds a missing index must stay out of the queue before
# it is resubmitted (late arrivals on NFS), resubmissions per index before giving up.
: "${POLL:=30}"
: "${GRACE:=60}"
: "${MAX_RETRIES:=3}"
# Jobs of this run are named after it: squeue -n hy-NAME-sp-GEN shows a generation's workers.
: "${RUN_NAME:=$(basename "$RUN")}"

export RUN HAYATE WORKERS PARALLEL THREADS GPUS POSITIONS SHARD_SIZE DEPTH SEED BOOTSTRAP_EVAL \
  TRAIN_THREADS EPOCHS WINDOW TRAIN_ARGS GATE_GAMES GATE_CONCURRENCY GATE_BYOYOMI GATE_GO \
  GATE_MIN_SCORE SBATCH_ARGS POLL GRACE MAX_RETRIES RUN_NAME

# Shards per worker, and the folder of generation $1.
SHARDS_PER_WORKER=$(((POSITIONS + SHARD_SIZE - 1) / SHARD_SIZE))
export SHARDS_PER_WORKER
gen_dir() { printf '%s/gen-%03d' "$RUN" "$1"; }
