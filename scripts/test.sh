#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: install packages, build, run the whole test suite
# (GUI tests in a virtual X server with Mesa's software OpenGL). `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh
bash scripts/build.sh default
echo "build finished after $(( $(date +%s) - start )) s"
cd build/default
xvfb-run -a -s "-screen 0 1280x1024x24" ctest --output-on-failure --timeout 600 -j2
echo "tests finished after $(( $(date +%s) - start )) s"
