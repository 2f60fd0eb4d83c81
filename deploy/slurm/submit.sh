#!/usr/bin/env bash
# Submits generation GEN of the loop: an array of WORKERS self-play workers (at most PARALLEL at
# once), the training job after all of them succeed, the gate after training. The job ids go
# to GEN_DIR/jobs.env for the supervisor.
#
#   submit.sh GEN                  the whole chain
#   submit.sh GEN selfplay LIST    only the self-play workers LIST (e.g. 3 or 1,5-7): a
#                                  resubmission; prints the job id and appends it to jobs.env
# Settings: config.sh (environment, then RUN/config.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=config.sh
source "$here/config.sh"

if [[ $# -lt 1 ]]; then
  echo "usage: $0 GEN [selfplay LIST]" >&2
  exit 2
fi
GEN=$1
GEN_DIR=$(gen_dir "$GEN")
HAYATE_DEPLOY=$here
export GEN GEN_DIR HAYATE_DEPLOY
mkdir -p "$GEN_DIR/data" "$GEN_DIR/logs"

# shellcheck disable=SC2086 # SBATCH_ARGS is a list of words
submit() { sbatch --parsable $SBATCH_ARGS "$@" | cut -d';' -f1; }

selfplay() { # array spec
  local gres=()
  if ((GPUS > 0)); then gres=(--gres="gpu:$GPUS"); fi
  submit --job-name="hy-$RUN_NAME-sp-$GEN" --array="$1" --cpus-per-task="$THREADS" \
    "${gres[@]}" --output="$GEN_DIR/logs/selfplay-%a-%j.out" "$here/selfplay.sbatch"
}

if [[ ${2:-} == selfplay ]]; then
  job=$(selfplay "${3:?which indices}")
  echo "RETRY_JOBS=\"\${RETRY_JOBS:-} $job\"" >>"$GEN_DIR/jobs.env"
  echo "$job"
  exit 0
fi

sp=$(selfplay "0-$((WORKERS - 1))%$PARALLEL")
tr=$(submit --job-name="hy-$RUN_NAME-train-$GEN" --dependency="afterok:$sp" \
  --cpus-per-task="$TRAIN_THREADS" --output="$GEN_DIR/logs/train-%j.out" "$here/train.sbatch")
gt=$(submit --job-name="hy-$RUN_NAME-gate-$GEN" --dependency="afterok:$tr" \
  --cpus-per-task="$GATE_CONCURRENCY" --output="$GEN_DIR/logs/gate-%j.out" "$here/gate.sbatch")
printf 'SELFPLAY_JOB=%s\nTRAIN_JOB=%s\nGATE_JOB=%s\n' "$sp" "$tr" "$gt" >"$GEN_DIR/jobs.env"
echo "generation $GEN: self-play $sp (array 0-$((WORKERS - 1))%$PARALLEL), train $tr, gate $gt"
