#!/usr/bin/env bash
# The shard test on a real Slurm: a 4-task array job plays a comparison, a
# simulation with the per-floor-kind metrics and an arena as four shards
# each (`--shard auto/4`, K from $SLURM_ARRAY_TASK_ID), `towerlab merge`
# joins them, and the merged JSON metrics (and `by_kind`; the arena's whole
# JSON) must equal a one-process run's byte for byte. Needs a running Slurm
# (.ci/slurm-setup.sh); bounded to 10 minutes. Usage: .ci/slurm-test.sh [path/to/towerlab]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release/towerlab}")
[[ -x "$bin" ]] || { echo "no towerlab binary at $bin (cargo build --release)" >&2; exit 1; }
work=$(mktemp -d /tmp/towerlab-slurm-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
runs=(
  "compare tower black-tower --games 40 --seed 11 --threads 1"
  "simulate --variant black-tower --games 40 --seed 11 --threads 1 --by-kind"
  "arena random greedy --variant tower --games 40 --seed 11 --threads 1"
)
tags=(a b c)

cat >"$work/shard.sbatch" <<JOB
#!/usr/bin/env bash
#SBATCH --job-name=towerlab-shards
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/slurm-%A_%a.log
cd "$PWD"
set -e
"$bin" ${runs[0]} --shard auto/4 --format partial >"$work/a-part-\$SLURM_ARRAY_TASK_ID.json"
"$bin" ${runs[1]} --shard auto/4 --format partial >"$work/b-part-\$SLURM_ARRAY_TASK_ID.json"
"$bin" ${runs[2]} --shard auto/4 --format partial >"$work/c-part-\$SLURM_ARRAY_TASK_ID.json"
JOB

timeout 600 sbatch --wait "$work/shard.sbatch"
# A comparison's JSON from its metrics on (the rest holds timings); an
# arena's, whole.
metrics() { python3 -c 'import sys; t=open(sys.argv[1]).read(); i=t.find("\"metrics\":"); print(t[max(i, 0):])' "$1"; }
for i in 0 1 2; do
  tag=${tags[$i]}
  "$bin" merge --format json "$work/$tag"-part-*.json >"$work/$tag-merged.json"
  "$bin" ${runs[$i]} --format json >"$work/$tag-one.json"
  if [[ "$(metrics "$work/$tag-merged.json")" == "$(metrics "$work/$tag-one.json")" ]]; then
    echo "slurm: 4 array tasks merged equal the one-process run: ${runs[$i]}"
  else
    echo "slurm: merged metrics differ from the one-process run: ${runs[$i]}" >&2
    exit 1
  fi
done
