#!/usr/bin/env bash
# A Slurm job array that makes the N shards of one variant's positions on
# N machines (or N cores), one shard per array task. Example:
#
#   sbatch --array=1-16 scripts/positions-slurm.sh international 800000 16
#
# Every task writes its part to $OUT (a shared directory); when all are
# done, join them on any one machine:
#
#   damaengine tune merge --out international.pos $OUT/international-*of16.part
#
# A task that is killed and resubmitted continues its part from its
# checkpoint. Settings (nodes, seed, random plies) must be the same for
# every task: they are written into each part's header, and a part is
# only continued by the same settings.
#SBATCH --job-name=damaengine-positions
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=04:00:00
#SBATCH --output=positions-%A_%a.log
set -euo pipefail
v=$1 games=$2 n=$3
out=${OUT:-$PWD/positions}
mkdir -p "$out"
k=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-$n}
exec "${DAMAENGINE:-damaengine}" tune gen --format positions --variant "$v" --games "$games" \
  --nodes 1000 --random-plies 4 --seed 45 --shard "$k/$n" \
  --out "$out/$v-s45-g$games-n1000-${k}of$n.part"
