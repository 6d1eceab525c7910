#!/usr/bin/env bash
# Builds the Debian package: installs the build packages, builds the release configuration and
# runs CPack. Prints the path of delineate_<version>_amd64.deb. Install it with
#   sudo apt install ./build/default/package/delineate_<version>_amd64.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh default
cpack -G DEB -B build/default/package --config build/default/CPackConfig.cmake >/dev/null
ls -1 "$(pwd)"/build/default/package/delineate_*_amd64.deb
