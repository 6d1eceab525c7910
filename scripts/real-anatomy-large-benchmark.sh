#!/usr/bin/env bash
# The interactive benchmark on a large real image that the engine was not tuned on: Debian's
# mricron-data "ch2better" (Colin27 at 0.5 mm, 301x370x316 = 35 million voxels, processed apart
# from ch2) with the AAL atlas put onto its grid (nearest neighbour, scripts/labels-onto-grid.py),
# six structures through every route. Prints the benchmark's JSON. Usage:
#   scripts/real-anatomy-large-benchmark.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build/default}
t=/usr/share/mricron/templates
if [ ! -f "$t/ch2better.nii.gz" ]; then
  echo "real-anatomy-large-benchmark: Debian's mricron-data is not installed ($t)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's own Python (its numpy and nibabel), whatever python3 comes first in PATH.
/usr/bin/python3 "$(dirname "$0")/labels-onto-grid.py" "$t/aal.nii.gz" "$t/ch2better.nii.gz" \
  "$work/aal-on-ch2better.nii.gz"
"$build/bench/interactive_protocol_benchmark" --image "$t/ch2better.nii.gz" \
  --labels "$work/aal-on-ch2better.nii.gz" --routes all --structures \
  37:Hippocampus_L,41:Amygdala_L,71:Caudate_L,73:Putamen_L,75:Pallidum_L,77:Thalamus_L
