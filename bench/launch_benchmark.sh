#!/usr/bin/env bash
# Launch to first frame: `delineate --screenshot` with DELINEATE_REPORT_FIRST_FRAME=1 reports the
# time from process start until every view shows the image (the 3D view at its coarse first
# level); the screenshot itself waits for full quality, so the whole run is also reported.
# Best of N runs each. Usage: bench/launch_benchmark.sh [BUILD_DIR] [RUNS]  (under xvfb-run)
set -euo pipefail
build=${1:-build/default}
runs=${2:-3}
sample=$(mktemp -d)
trap 'rm -rf "$sample"' EXIT
"$build/app/delineate-cli" sample "$sample" >/dev/null
measure() {  # prints "<first-frame seconds> <whole-run seconds>" (best of $runs each)
  local bf=999 bt=999
  for _ in $(seq "$runs"); do
    local t0 t1 ff
    t0=$(date +%s.%N)
    ff=$(DELINEATE_REPORT_FIRST_FRAME=1 "$build/app/gui/delineate" --screenshot \
      "$sample/shot.png" --layout 2x2 "$@" 2>&1 >/dev/null |
      sed -n 's/^first frame after \([0-9]*\) ms$/\1/p')
    t1=$(date +%s.%N)
    bf=$(echo "${ff:-999000} $bf" | awk '{d=$1/1000; print (d<$2)?d:$2}')
    bt=$(echo "$t0 $t1 $bt" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  printf '%.2f %.2f\n' "$bf" "$bt"
}
read -r mr_first mr_total < <(measure "$sample/brain-mr/dicom")
read -r ct_first ct_total < <(measure "$sample/abdomen-ct/abdomen-ct.nii.gz")
cat <<JSON
{
  "benchmark": "launch_to_first_frame",
  "layout": "2x2 (three slice views + 3D)",
  "runs": $runs,
  "brain_mr_dicom_144_slices": {"first_frame_seconds": $mr_first, "full_quality_screenshot_seconds": $mr_total},
  "abdomen_ct_nifti": {"first_frame_seconds": $ct_first, "full_quality_screenshot_seconds": $ct_total},
  "target_first_frame_seconds": 2.0
}
JSON
