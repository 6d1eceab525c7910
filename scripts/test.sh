#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: install packages, build, run the whole test suite
# (GUI tests in a virtual X server with Mesa's software OpenGL), then a short fuzzing run of the
# DICOM and NIfTI readers, then the whole suite again under AddressSanitizer + UBSan.
# `.ci/run` calls exactly this.  `scripts/test.sh --quick` runs only the first part.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }
xvfb() { xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" "$@"; }

bash scripts/install-deps.sh
bash scripts/build.sh default
echo "== default build finished after $(elapsed)"
(cd build/default && xvfb ctest --output-on-failure --timeout 600 -j2)
echo "== default tests finished after $(elapsed)"
[ "$quick" = 1 ] && exit 0

bash scripts/fuzz-smoke.sh 30
echo "== fuzzing finished after $(elapsed)"

bash scripts/build.sh asan
echo "== asan build finished after $(elapsed)"
xvfb ctest --preset asan -j2
echo "== asan tests finished after $(elapsed)"
