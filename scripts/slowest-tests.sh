#!/usr/bin/env bash
# Prints the N slowest tests (default 15) of a build's last ctest run, with their seconds, from
# the GoogleTest XML reports each suite's process writes (build/PRESET/test-xml, see
# cmake/GTestSuites.cmake). Usage: scripts/slowest-tests.sh BUILD_DIR [N]
set -euo pipefail
dir=${1:?build folder}/test-xml
n=${2:-15}
[ -d "$dir" ] || { echo "slowest tests: no reports in $dir"; exit 0; }
# <testcase name="Name" ... time="1.234" ... classname="Suite" ...>: one per line in gtest's XML.
grep -h '<testcase ' "$dir"/*.xml 2>/dev/null |
  sed -n 's/.*name="\([^"]*\)".*time="\([0-9.]*\)".*classname="\([^"]*\)".*/\2 \3.\1/p' |
  sort -rn | awk -v n="$n" 'NR <= n {printf "  %8.2f s  %s\n", $1, $2}'
