#!/usr/bin/env bash
# Runs the loop: generations FIRST..LAST (default 0..0), each submitted by submit.sh (unless
# GEN_DIR/jobs.env says it was), then watched until its gate has decided. Every POLL seconds it
# prints one progress line, and it resubmits the self-play indices whose shards are missing and
# that are no longer in the queue (Slurm does not retry a failed array task): an index must stay
# missing for GRACE seconds first, so shards that are late to appear on NFS are not redone.
# When a worker failed, the training job waits (DependencyNeverSatisfied); once every missing
# index is queued again, its dependency is pointed at the queued workers.
#
# The run directory is its only state: stop it and start it again at any time.
#
#   supervisor.sh [FIRST [LAST]]
# Settings: config.sh (environment, then RUN/config.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=config.sh
source "$here/config.sh"
first=${1:-0}
last=${2:-$first}
user=$(id -un)

log() { echo "$(date +%H:%M:%S) $*"; }

# Indices of generation dir $1 with a shard missing, one per line.
missing_indices() {
  local i j s
  for ((i = 0; i < WORKERS; i++)); do
    for ((j = 0; j < SHARDS_PER_WORKER; j++)); do
      s=$((i * SHARDS_PER_WORKER + j))
      if [[ ! -e $(printf '%s/data/shard-%06d.psv' "$1" "$s") ]]; then
        echo "$i"
        break
      fi
    done
  done
}

# Lines `JOBID INDEX STATE REASON` of the queued self-play tasks of generation $1.
queued_workers() {
  squeue -h -r -u "$user" -n "hy-$RUN_NAME-sp-$1" -o '%i %K %T %r' 2>/dev/null || true
}

# `STATE REASON` of job $1, empty when it left the queue.
job_state() { squeue -h -j "$1" -o '%T %r' 2>/dev/null || true; }

run_generation() {
  local gen=$1 gd
  gd=$(gen_dir "$gen")
  if [[ -e $gd/gate/decision ]]; then
    log "generation $gen: decided already: $(cat "$gd/gate/decision")"
    return 0
  fi
  if [[ ! -e $gd/jobs.env ]]; then
    log "$("$here/submit.sh" "$gen")"
  fi
  local -A gone=() retries=()
  local gate_gone=0 relink=0
  while true; do
    local TRAIN_JOB GATE_JOB
    # shellcheck source=/dev/null
    source "$gd/jobs.env"
    local now queue missing
    now=$(date +%s)
    queue=$(queued_workers "$gen")
    missing=$(missing_indices "$gd")
    local -A queued=()
    local id idx
    while read -r id idx _; do
      [[ -n ${idx:-} ]] && queued[$idx]=$id
    done <<<"$queue"

    # Missing and not queued: failed (or late on NFS). Resubmit after the grace time.
    local redo=() i
    for i in $missing; do
      if [[ -n ${queued[$i]:-} ]]; then
        unset "gone[$i]"
      elif [[ -z ${gone[$i]:-} ]]; then
        gone[$i]=$now
      elif ((now - gone[$i] >= GRACE)); then
        if ((${retries[$i]:-0} >= MAX_RETRIES)); then
          log "generation $gen: index $i failed $MAX_RETRIES resubmissions; see $gd/logs" >&2
          return 1
        fi
        redo+=("$i")
      fi
    done
    if ((${#redo[@]} > 0)); then
      local list job
      list=$(IFS=,; echo "${redo[*]}")
      job=$("$here/submit.sh" "$gen" selfplay "$list")
      for i in "${redo[@]}"; do
        retries[$i]=$((${retries[$i]:-0} + 1))
        unset "gone[$i]"
      done
      log "generation $gen: resubmitted index $list as job $job"
      queue=$(queued_workers "$gen")
      relink=1
    fi

    # The training job waits on the array, which has a failed task: once every missing index
    # is queued again, it waits on the queued workers instead (each task by its id, 12_3).
    local train gate
    train=$(job_state "$TRAIN_JOB")
    gate=$(job_state "$GATE_JOB")
    if [[ $train == PENDING* ]] && ((${#gone[@]} == 0)) &&
      [[ $relink == 1 || $train == *DependencyNeverSatisfied* ]]; then
      local deps
      deps=$(awk 'NF && !seen[$1]++ {printf ":%s", $1}' <<<"$queue")
      deps=${deps:+afterok$deps}
      scontrol update JobId="$TRAIN_JOB" Dependency="$deps"
      log "generation $gen: training $TRAIN_JOB now waits on ${deps:-nothing}"
      relink=0
    fi

    # Progress.
    local shards positions running pending
    shards=$(find "$gd/data" -maxdepth 1 -name 'shard-*.psv' | wc -l)
    positions=$(($(find "$gd/data" -maxdepth 1 -name 'shard-*.psv' -printf '%s\n' |
      awk '{s += $1} END {print s + 0}') / 40))
    running=$(grep -c ' RUNNING ' <<<"$queue" || true)
    pending=$(grep -c ' PENDING ' <<<"$queue" || true)
    log "generation $gen: shards $shards/$((WORKERS * SHARDS_PER_WORKER)), positions" \
      "$positions/$((WORKERS * POSITIONS)); workers running $running, pending $pending," \
      "resubmitted ${#retries[@]}; train ${train:-gone}; gate ${gate:-gone}"

    if [[ -e $gd/gate/decision ]]; then
      log "generation $gen: $(cat "$gd/gate/decision")"
      return 0
    fi
    # The training job failed: the gate can never start.
    if [[ $gate == *DependencyNeverSatisfied* && -z $train ]]; then
      log "generation $gen: training $TRAIN_JOB failed; see $gd/logs" >&2
      return 1
    fi
    # The gate left the queue without deciding: look again after the grace time, then fail.
    if [[ -z $gate ]]; then
      gate_gone=$((gate_gone > 0 ? gate_gone : now))
      if ((now - gate_gone >= GRACE)); then
        log "generation $gen: the gate $GATE_JOB ended without a decision; see $gd/logs" >&2
        return 1
      fi
    fi
    sleep "$POLL"
  done
}

for ((gen = first; gen <= last; gen++)); do
  run_generation "$gen"
done
log "done: generations $first..$last; current net: $(readlink "$RUN/current" 2>/dev/null || echo none)"
