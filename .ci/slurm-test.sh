#!/usr/bin/env bash
# The shard test on a real Slurm: a 4-task array job plays a comparison as
# four shards (`--shard auto/4`, K from $SLURM_ARRAY_TASK_ID), `towerlab
# merge` joins them, and the merged JSON metrics must equal a one-process
# run's byte for byte. Needs a running Slurm (.ci/slurm-setup.sh); bounded
# to 10 minutes. Usage: .ci/slurm-test.sh [path/to/towerlab]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release/towerlab}")
[[ -x "$bin" ]] || { echo "no towerlab binary at $bin (cargo build --release)" >&2; exit 1; }
work=$(mktemp -d /tmp/towerlab-slurm-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
run="compare tower black-tower --games 40 --seed 11 --threads 1"

cat >"$work/shard.sbatch" <<JOB
#!/usr/bin/env bash
#SBATCH --job-name=towerlab-shards
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/slurm-%A_%a.log
cd "$PWD"
exec "$bin" $run --shard auto/4 --format partial >"$work/part-\$SLURM_ARRAY_TASK_ID.json"
JOB

timeout 600 sbatch --wait "$work/shard.sbatch"
"$bin" merge --format json "$work"/part-*.json >"$work/merged.json"
"$bin" $run --format json >"$work/one.json"
metrics() { python3 -c 'import sys; t=open(sys.argv[1]).read(); print(t[t.index("\"metrics\":"):])' "$1"; }
if [[ "$(metrics "$work/merged.json")" == "$(metrics "$work/one.json")" ]]; then
  echo "slurm: 4 array tasks merged equal the one-process run"
else
  echo "slurm: merged metrics differ from the one-process run" >&2
  exit 1
fi
