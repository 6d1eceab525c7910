#!/usr/bin/env bash
# The interactive benchmark's 256^3 timing target: Colin27 and its AAL labels from Debian's
# mricron-data resampled to 256x256x256 voxels (scripts/resample-to-256.py), then six structures
# through every route. Prints the benchmark's JSON. Usage:
#   scripts/real-anatomy-256-benchmark.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/real-anatomy-setup.sh"
real_anatomy_setup real-anatomy-256-benchmark ch2.nii.gz "${1:-}"
# Debian's own Python (its numpy and nibabel), whatever python3 comes first in PATH.
/usr/bin/python3 "$(dirname "$0")/resample-to-256.py" "$t/ch2.nii.gz" "$t/aal.nii.gz" \
  "$work/ch2-256.nii.gz" "$work/aal-256.nii.gz"
"$build/bench/interactive_protocol_benchmark" --image "$work/ch2-256.nii.gz" \
  --labels "$work/aal-256.nii.gz" --routes all --structures \
  37:Hippocampus_L,71:Caudate_L,73:Putamen_L,75:Pallidum_L,77:Thalamus_L,43:Calcarine_L
