#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests: munged, slurmctld and slurmd on
# localhost, everything (keys, sockets, state, logs, slurm.conf) under DIR, nothing in /etc.
# Needs root and Debian's packages (`apt-get install slurm-wlm munge`; `start` installs them
# when slurmctld is missing). The daemons run at nice 15, and so do the jobs they start.
#
#   local-cluster.sh start [CPUS]   start (CPUS: the node's CPU count, default: this machine's)
#   local-cluster.sh stop           stop the daemons started by `start`
#   eval "$(local-cluster.sh env)"  point sbatch, squeue, scontrol at it
# DIR: SLURM_LOCAL_DIR, default /tmp/hayate-slurm.
set -euo pipefail
dir=${SLURM_LOCAL_DIR:-/tmp/hayate-slurm}
host=$(hostname -s)

stop() {
  local name pid
  for name in slurmd slurmctld munged; do
    if [[ -s $dir/$name.pid ]]; then
      pid=$(cat "$dir/$name.pid")
      if kill "$pid" 2>/dev/null; then
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      fi
      rm -f "$dir/$name.pid"
    fi
  done
}

start() {
  local cpus=${1:-$(nproc)}
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    local apt=(env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends
      slurm-wlm munge)
    "${apt[@]}" >&2 || { apt-get update >&2 && "${apt[@]}" >&2; }
  fi
  stop
  rm -rf "$dir"
  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir" "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"
  local mem
  mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=hayate-local
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  nice -n 15 slurmctld -f "$dir/slurm.conf"
  nice -n 15 slurmd -f "$dir/slurm.conf"
  export SLURM_CONF=$dir/slurm.conf
  for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
      echo "local Slurm up: node $host, $cpus CPUs; logs in $dir/log" >&2
      return 0
    fi
    sleep 1
  done
  echo "local Slurm did not come up; see $dir/log" >&2
  sinfo >&2 || true
  return 1
}

case ${1:-} in
  start) start "${2:-}" ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$dir/slurm.conf" ;;
  *)
    echo "usage: $0 start [CPUS] | stop | env" >&2
    exit 2
    ;;
esac
