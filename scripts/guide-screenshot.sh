#!/usr/bin/env bash
# guide-screenshot.sh DELINEATE OUT.png ARGS...: one user-guide screenshot, `DELINEATE
# --screenshot OUT.png ARGS...`, in a virtual X server when there is no display (the build).
set -euo pipefail
app=$1 out=$2
shift 2
if [ -n "${DISPLAY:-}" ]; then
  exec "$app" --screenshot "$out" "$@"
fi
exec xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" "$app" --screenshot "$out" "$@"
