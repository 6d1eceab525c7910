#!/usr/bin/env bash
# The layer rules (docs/architecture.md), checked as a test:
#  - core/ and annotation/ include no Qt header at all and no VTK header: everything below
#    viewers/ stays headless and testable without a display or a Qt event loop;
#  - a lower layer never includes a higher one (core < annotation < viewers < app), and inside
#    core the document model has no folder cycle (model < io < edit < document);
#  - plugins/ include only core/, annotation/ and plugins/ (a backend is Qt-free below its thin
#    Qt plugin shell, and knows nothing of the app);
#  - app/cli and app/server make backends through the registry (plugins/api/,
#    plugins/LinkedBackends.h), never from a concrete plugin class.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail=0
report() {
  if [ -n "$2" ]; then
    echo "Layering violation: $1:"
    echo "$2"
    fail=1
  fi
}
src=(--include='*.h' --include='*.cpp')
report "core/ and annotation/ must not include Qt or VTK headers" \
  "$(grep -rnE '#\s*include\s*[<"](Q[A-Za-z]|Qt[A-Za-z]|vtk)' "$root/core" "$root/annotation" "${src[@]}" || true)"
report "core/ and annotation/ must not include a higher layer" \
  "$(grep -rnE '#\s*include\s*"(viewers|app|plugins)/' "$root/core" "$root/annotation" "${src[@]}" || true)"
report "core/model must not include core/io, core/edit or core/document (model < io < edit < document)" \
  "$(grep -rnE '#\s*include\s*"core/(io|edit|document)/' "$root/core/model" "${src[@]}" || true)"
report "core/io must not include core/edit or core/document" \
  "$(grep -rnE '#\s*include\s*"core/(edit|document)/' "$root/core/io" "${src[@]}" || true)"
report "core/edit must not include core/document" \
  "$(grep -rnE '#\s*include\s*"core/document/' "$root/core/edit" "${src[@]}" || true)"
report "viewers/ must not include app/ or plugins/" \
  "$(grep -rnE '#\s*include\s*"(app|plugins)/' "$root/viewers" "${src[@]}" || true)"
report "plugins/ may include only core/, annotation/ and plugins/" \
  "$(grep -rnE '#\s*include\s*"(app|viewers)/' "$root/plugins" "${src[@]}" || true)"
report "app/cli and app/server make backends through the registry, not concrete plugin classes" \
  "$(grep -rnE '#\s*include\s*"plugins/' "$root/app/cli" "$root/app/server" "${src[@]}" |
    grep -vE '"plugins/(api/[A-Za-z]+|LinkedBackends)\.h"' || true)"
if [ "$fail" -ne 0 ]; then
  exit 1
fi
echo "layers ok"
