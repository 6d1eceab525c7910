#!/usr/bin/env bash
# Checks Delineate's Blosc2 chunks against the reference library, c-blosc2, which Debian 12 does
# not package: builds c-blosc2 from a source tree you give (its own zstd and lz4 from Debian),
# then runs scripts/blosc2-crosscheck/crosscheck.cpp (our writer -> c-blosc2's reader, c-blosc2's
# writer -> our reader). Usage: scripts/blosc2-crosscheck.sh C_BLOSC2_SOURCE_DIR [WORK_DIR]
set -euo pipefail
src=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
repo=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTS=OFF \
  -DBUILD_BENCHMARKS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_FUZZERS=OFF -DBUILD_PLUGINS=OFF \
  -DBUILD_STATIC=OFF -DPREFER_EXTERNAL_ZSTD=ON -DPREFER_EXTERNAL_LZ4=ON -DDEACTIVATE_ZLIB=ON \
  >"$work/configure.log"
cmake --build "$work/build" -j2 >"$work/build.log"
g++ -std=c++20 -O1 -I"$repo" -I"$src/include" "$repo/scripts/blosc2-crosscheck/crosscheck.cpp" \
  "$repo/core/ai/Blosc2Chunk.cpp" "$repo/core/Error.cpp" -L"$work/build/blosc" -lblosc2 -lzstd \
  -llz4 -Wl,-rpath,"$work/build/blosc" -o "$work/crosscheck"
"$work/crosscheck"
