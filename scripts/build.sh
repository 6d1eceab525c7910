#!/usr/bin/env bash
# Configures and builds a CMake preset (default: "default"). Idempotent; ccache when present.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Relative paths in the cache keys: a fresh clone elsewhere reuses the same cache entries.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
if [ ! -f "build/$preset/build.ninja" ]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset"
