#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: install packages, build, open the workstation on the
# built-in sample (a synthetic brain MR; generated on first start) with the built-in AI backend.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh default
exec ./build/default/app/gui/delineate "$@"
