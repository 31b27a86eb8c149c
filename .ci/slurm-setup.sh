#!/usr/bin/env bash
# A single-node Slurm (Debian's slurm-wlm and munge) for the shard test:
# one controller and one compute node on this machine, no cgroups, no
# accounting. Exits 0 when `sinfo` shows the node idle; any step that fails
# says which and exits non-zero. Every wait is bounded.
#   .ci/slurm-setup.sh            install (if needed), configure, start
#   .ci/slurm-setup.sh stop       stop the daemons it started
set -euo pipefail

state=/tmp/towerlab-slurm
conf=/etc/slurm/slurm.conf

stop() {
  for name in slurmd slurmctld munged; do
    if [[ -f "$state/$name.pid" ]]; then
      # One pid a line (pgrep may list more than one).
      xargs -r kill <"$state/$name.pid" 2>/dev/null || true
      rm -f "$state/$name.pid"
    fi
  done
}

if [[ "${1:-}" == stop ]]; then
  stop
  exit 0
fi

if ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  timeout 600 apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq slurm-wlm munge >/dev/null
fi

mkdir -p "$state"/{spool,ctld,log} /etc/slurm /etc/munge /run/munge /var/lib/munge /var/log/munge
if [[ ! -s /etc/munge/munge.key ]]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 0400 /etc/munge/munge.key

host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat >"$conf" <<CONF
ClusterName=towerlab
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroup.conf: Slurm 22.05 has no `CgroupPlugin=disabled`, and with
# proctrack/linuxproc and task/none it needs no cgroup of its own.
rm -f /etc/slurm/cgroup.conf

if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- munged 2>/dev/null || munged --force
  pgrep -x munged >"$state/munged.pid" || { echo "munged did not start" >&2; exit 1; }
fi
munge -n | unmunge >/dev/null || { echo "munge cannot encode and decode a credential" >&2; exit 1; }

# (Started here, they write their pid files into $state, which `stop` reads.)
pgrep -x slurmctld >/dev/null ||
  slurmctld -f "$conf" || { echo "slurmctld did not start; see $state/log/slurmctld.log" >&2; exit 1; }
pgrep -x slurmd >/dev/null ||
  slurmd -f "$conf" || { echo "slurmd did not start; see $state/log/slurmd.log" >&2; exit 1; }

for _ in $(seq 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)'; then
    sinfo
    exit 0
  fi
  sleep 1
done
echo "the node did not become idle in 60 s:" >&2
sinfo >&2 || true
tail -n 20 "$state/log/slurmd.log" "$state/log/slurmctld.log" >&2 || true
exit 1
