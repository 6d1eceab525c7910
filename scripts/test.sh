#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: install packages, build, run the whole test suite
# (GUI tests in a virtual X server with Mesa's software OpenGL), then a short fuzzing run of every
# harness, then the whole suite again under AddressSanitizer + UBSan.
# `.ci/run` calls exactly this.  `scripts/test.sh --quick` runs only the first part.
# Each stage prints one line with its seconds (and each build its ccache hits); the end prints the
# stage table and the 15 slowest tests. docs/ci.md holds the time budget per stage.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
start=$(date +%s)
stage_start=$start
stages=()
stage() {  # stage NAME: closes the stage that ran since the last call
  local now
  now=$(date +%s)
  stages+=("$(printf '%-16s %6d s' "$1" $((now - stage_start)))")
  echo "== stage $1: $((now - stage_start)) s (total $((now - start)) s)"
  stage_start=$now
}
xvfb() { xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" "$@"; }
build() {  # build PRESET: the preset's build, its ccache hit rate, and the check that a clone
  # elsewhere would reuse the cache it filled
  if command -v ccache >/dev/null; then ccache -z >/dev/null; fi
  if [ "$1" = fuzz ]; then bash scripts/fuzz-smoke.sh build; else bash scripts/build.sh "$1"; fi
  if command -v ccache >/dev/null; then bash scripts/ccache-rate.sh "$1"; fi
  stage "build $1"
  bash scripts/check-ccache-reuse.sh "$1"
  stage "ccache check $1"
}
summary() {  # the EXIT trap: reports, and never changes the run's exit status
  local rc=$?
  set +e
  echo "== stages"
  printf '  %s\n' "${stages[@]}"
  echo "== total $(($(date +%s) - start)) s"
  for b in default asan; do
    if [ -d "build/$b/test-xml" ]; then
      echo "== 15 slowest tests ($b)"
      bash scripts/slowest-tests.sh "build/$b" 15
    fi
  done
  exit "$rc"
}
trap summary EXIT

bash scripts/install-deps.sh
stage install
build default
rm -rf build/default/test-xml
(cd build/default && xvfb ctest --output-on-failure --timeout 600 -j2)
stage "test default"
[ "$quick" = 1 ] && exit 0

build fuzz
bash scripts/fuzz-smoke.sh 30
stage fuzzing

build asan
rm -rf build/asan/test-xml
xvfb ctest --preset asan -j2
stage "test asan"
