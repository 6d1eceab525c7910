#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the DICOM and NIfTI readers and of the MONAI Label answer
# parsers (clang, preset "fuzz") and runs each for a short time on seeds made in code, with a fixed
# random seed so that CI runs repeat.
# A crash, leak, hang (30 s) or sanitizer finding fails.
# Usage: scripts/fuzz-smoke.sh [SECONDS_PER_HARNESS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
if [ ! -f build/fuzz/build.ninja ]; then
  cmake --preset fuzz
fi
cmake --build --preset fuzz --target DicomLoaderFuzzer NiftiLoaderFuzzer MonaiResponseFuzzer \
  make_fuzz_seeds
work=build/fuzz/smoke
rm -rf "$work"
mkdir -p "$work/corpus-dicom" "$work/corpus-nifti" "$work/corpus-monai"
build/fuzz/tests/fuzz/make_fuzz_seeds "$work/seeds"
build/fuzz/tests/fuzz/DicomLoaderFuzzer -max_total_time="$seconds" -seed=1 -timeout=30 -rss_limit_mb=4096 \
  -print_final_stats=1 "$work/corpus-dicom" "$work/seeds/dicom" 2>"$work/dicom.log" ||
  { tail -40 "$work/dicom.log"; exit 1; }
build/fuzz/tests/fuzz/NiftiLoaderFuzzer -max_total_time="$seconds" -seed=1 -timeout=30 -rss_limit_mb=4096 \
  -print_final_stats=1 "$work/corpus-nifti" "$work/seeds/nifti" 2>"$work/nifti.log" ||
  { tail -40 "$work/nifti.log"; exit 1; }
build/fuzz/tests/fuzz/MonaiResponseFuzzer -max_total_time="$seconds" -seed=1 -timeout=30 -rss_limit_mb=4096 \
  -print_final_stats=1 "$work/corpus-monai" "$work/seeds/monai" 2>"$work/monai.log" ||
  { tail -40 "$work/monai.log"; exit 1; }
for h in dicom nifti monai; do
  echo "fuzz $h: $(grep -a -m1 'stat::number_of_executed_units' "$work/$h.log" | awk '{print $2}') inputs in ${seconds} s, no findings"
done
