#!/usr/bin/env bash
# Self-play throughput of 1, 2 and 4 array tasks on a one-node cluster on this machine
# (local-cluster.sh, the node declared with 4 CPUs so that 4 tasks run at once whatever the
# cores). The same TOTAL positions are split over the tasks; the rate is TOTAL over the wall
# time from the first task's start to the last one's end (from the tasks' logs).
#
#   deploy/slurm/throughput-local.sh [TOTAL [DEPTH]]     (as root; default 12000 positions, depth 8)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
total=${1:-12000}
depth=${2:-8}
: "${HAYATE:=$repo/target/release/hayate}"
export HAYATE
export SLURM_LOCAL_DIR=${SLURM_LOCAL_DIR:-/tmp/hayate-slurm}
"$here/local-cluster.sh" start 4
trap '"$here/local-cluster.sh" stop' EXIT
eval "$("$here/local-cluster.sh" env)"

echo "cores $(nproc), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tasks  positions/task  wall s  positions/s  per task/s  CPU s  positions/CPU-s"
for n in 1 2 4; do
  export RUN=$SLURM_LOCAL_DIR/tp-$n WORKERS=$n PARALLEL=$n THREADS=1 DEPTH=$depth SEED=3
  export POSITIONS=$((total / n)) SHARD_SIZE=$((total / n)) BOOTSTRAP_EVAL=kkpee9
  rm -rf "$RUN"
  "$here/submit.sh" 0 selfplay "0-$((n - 1))" >/dev/null
  while [[ -n $(squeue -h -n "hy-tp-$n-sp-0") ]]; do sleep 1; done
  logs=("$RUN"/gen-000/logs/selfplay-*.out)
  wall=$(awk '$1 == "start" {if (!s || $2 < s) s = $2} $1 == "end" {if ($2 > e) e = $2}
    END {printf "%.1f", e - s}' "${logs[@]}")
  done_positions=$(($(cat "$RUN"/gen-000/data/shard-*.psv | wc -c) / 40))
  per_task=$(grep -h '^positions' "${logs[@]}" | awk '{s += $6} END {printf "%.0f", s / NR}')
  # `times` prints the children's user and system time as its second line: 0m12.345s 0m0.100s.
  cpu=$(awk 'FNR == 1 {e = -9} /^end / {e = FNR} FNR == e + 2 {split($1 " " $2, t, /[ms ]+/)
    s += t[1] * 60 + t[2] + t[3] * 60 + t[4]} END {printf "%.1f", s}' "${logs[@]}")
  printf '%5d  %14d  %6s  %11.0f  %10s  %5s  %15.0f\n' "$n" "$POSITIONS" "$wall" \
    "$(awk -v p="$done_positions" -v w="$wall" 'BEGIN {print p / w}')" "$per_task" "$cpu" \
    "$(awk -v p="$done_positions" -v c="$cpu" 'BEGIN {print p / c}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
