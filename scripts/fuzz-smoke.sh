#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the DICOM, NIfTI and DICOM SR readers and of the AI-server
# answer parsers and nnInteractive's packed arrays (clang, preset "fuzz") and runs each for a short time on seeds made in code, with
# a fixed random seed so that CI runs repeat.
# A crash, leak, hang (30 s) or sanitizer finding fails.
# Usage: scripts/fuzz-smoke.sh [SECONDS_PER_HARNESS]   (default 30)
#        scripts/fuzz-smoke.sh build                   (only builds the harnesses)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
source scripts/ccache-env.sh
if [ ! -f build/fuzz/build.ninja ]; then
  cmake --preset fuzz
fi
# harness name, seed folder (written by make_fuzz_seeds)
harnesses=(DicomLoaderFuzzer:dicom NiftiLoaderFuzzer:nifti MonaiResponseFuzzer:monai
  SrDocumentFuzzer:sr PackedArrayFuzzer:nnia)
cmake --build --preset fuzz --target "${harnesses[@]%%:*}" make_fuzz_seeds
[ "$seconds" = build ] && exit 0
work=build/fuzz/smoke
rm -rf "$work"
build/fuzz/tests/fuzz/make_fuzz_seeds "$work/seeds"
for h in "${harnesses[@]}"; do
  name=${h%%:*} seeds=${h##*:}
  mkdir -p "$work/corpus-$seeds"
  # Inputs that once took a reader down are replayed as seeds (tests/data/repro: NIfTI and DICOM
  # files), and so is the kept corpus of the long fuzzing runs (tests/fuzz/corpus/*,
  # docs/fuzzing.md).
  extra=()
  case "$seeds" in nifti | dicom) extra+=(tests/data/repro) ;; esac
  [ -d "tests/fuzz/corpus/$seeds" ] && extra+=("tests/fuzz/corpus/$seeds")
  build/fuzz/tests/fuzz/"$name" -max_total_time="$seconds" -seed=1 -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$work/" \
    "$work/corpus-$seeds" "$work/seeds/$seeds" "${extra[@]}" \
    2>"$work/$seeds.log" || { tail -40 "$work/$seeds.log"; exit 1; }
  echo "fuzz $name: $(grep -a -m1 'stat::number_of_executed_units' "$work/$seeds.log" |
    awk '{print $2}') inputs in ${seconds} s, no findings"
done
