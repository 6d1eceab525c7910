#!/usr/bin/env bash
# guide-screenshot.sh DELINEATE OUT.png ARGS...: one user-guide screenshot, `DELINEATE
# --screenshot OUT.png ARGS...`, in a virtual X server when there is no display (the build).
# Tried a second time if the first attempt fails (a virtual X server that did not start, a
# machine too loaded for the app's own time limit); the second failure fails the build.
set -uo pipefail
app=$1 out=$2
shift 2
shot() {
  if [ -n "${DISPLAY:-}" ]; then
    "$app" --screenshot "$out" "$@"
  else
    xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" "$app" --screenshot "$out" "$@"
  fi
}
shot "$@" && exit 0
echo "guide-screenshot: $(basename "$out") failed once; trying again" >&2
shot "$@"
