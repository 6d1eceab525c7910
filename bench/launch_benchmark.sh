#!/usr/bin/env bash
# Launch to first frame: wall time of `delineate --screenshot` (process start, load, first paint
# of all four views, grab, exit) — an upper bound of the time to the first frame. Best of N runs.
# Usage: bench/launch_benchmark.sh [BUILD_DIR] [RUNS]   (needs a display: run under xvfb-run)
set -euo pipefail
build=${1:-build/default}
runs=${2:-3}
sample=$(mktemp -d)
trap 'rm -rf "$sample"' EXIT
"$build/app/delineate-cli" sample "$sample" >/dev/null
best() {
  local b=999
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$build/app/gui/delineate" --screenshot "$sample/shot.png" --layout 2x2 "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 $b" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  printf '%.2f' "$b"
}
mr=$(best "$sample/brain-mr/dicom")
ct=$(best "$sample/abdomen-ct/abdomen-ct.nii.gz")
cat <<JSON
{
  "benchmark": "launch_to_first_frame",
  "runs": $runs,
  "brain_mr_dicom_144_slices_seconds": $mr,
  "abdomen_ct_nifti_seconds": $ct,
  "target_seconds": 2.0
}
JSON
