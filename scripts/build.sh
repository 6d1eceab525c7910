#!/usr/bin/env bash
# Configures and builds a CMake preset (default: "default"). Idempotent; ccache when present.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
# Relative paths in the cache keys: a fresh clone elsewhere reuses the same cache entries.
source scripts/ccache-env.sh
if [ ! -f "build/$preset/build.ninja" ]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset"
