#!/usr/bin/env bash
# The interactive benchmark on a large real image that the engine was not tuned on: Debian's
# mricron-data "ch2better" (Colin27 at 0.5 mm, 301x370x316 = 35 million voxels, processed apart
# from ch2) with the AAL atlas put onto its grid (nearest neighbour, scripts/labels-onto-grid.py),
# six structures through every route. Prints the benchmark's JSON. Usage:
#   scripts/real-anatomy-large-benchmark.sh [BUILD_DIR]
set -euo pipefail
. "$(dirname "$0")/real-anatomy-setup.sh"
real_anatomy_setup real-anatomy-large-benchmark ch2better.nii.gz "${1:-}"
# Debian's own Python (its numpy and nibabel), whatever python3 comes first in PATH.
/usr/bin/python3 "$(dirname "$0")/labels-onto-grid.py" "$t/aal.nii.gz" "$t/ch2better.nii.gz" \
  "$work/aal-on-ch2better.nii.gz"
"$build/bench/interactive_protocol_benchmark" --image "$t/ch2better.nii.gz" \
  --labels "$work/aal-on-ch2better.nii.gz" --routes all --structures \
  37:Hippocampus_L,41:Amygdala_L,71:Caudate_L,73:Putamen_L,75:Pallidum_L,77:Thalamus_L
