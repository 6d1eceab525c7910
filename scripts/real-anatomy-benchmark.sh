#!/usr/bin/env bash
# The box-then-clicks protocol (bench/interactive_protocol_benchmark) on real anatomy from
# Debian's mricron-data: the Colin27 T1 brain (ch2, 1 mm) with the AAL atlas drawn on it, and
# the INIA19 macaque T1 template (0.5 mm) with its NeuroMaps parcellation. Prints one JSON
# document per image. Usage: scripts/real-anatomy-benchmark.sh [BUILD_DIR] [--routes direct|all]
set -euo pipefail
build=${1:-build/default}
shift || true
t=/usr/share/mricron/templates
if [ ! -f "$t/ch2.nii.gz" ]; then
  echo "real-anatomy-benchmark: Debian's mricron-data is not installed ($t)" >&2
  exit 1
fi
bench="$build/bench/interactive_protocol_benchmark"
# AAL: hippocampi, amygdalae, caudate, putamen, pallidum, thalami and the calcarine cortex.
"$bench" --image "$t/ch2.nii.gz" --labels "$t/aal.nii.gz" "$@" --structures \
  37:Hippocampus_L,38:Hippocampus_R,41:Amygdala_L,42:Amygdala_R,71:Caudate_L,72:Caudate_R,73:Putamen_L,74:Putamen_R,75:Pallidum_L,77:Thalamus_L,78:Thalamus_R,43:Calcarine_L
# NeuroMaps (no names ship with it): every left-hemisphere label of at least 2 000 voxels that
# is one connected piece.
"$bench" --image "$t/inia19-t1-brain.nii.gz" --labels "$t/inia19-NeuroMaps.nii.gz" "$@" \
  --structures 1,3,4,6,7,37,45,65,147,153,196,215,216,242,253,497
