#!/usr/bin/env bash
# Copies the user guide's screenshots taken by the last build (build/default/docs/guide/images)
# into docs/guide/images, for reading the guide in the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C build/default delineate_user_guide
mkdir -p docs/guide/images
cp build/default/docs/guide/images/*.png docs/guide/images/
ls -l docs/guide/images
