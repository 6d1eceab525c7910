#!/usr/bin/env bash
# Fails when core/ or annotation/ include a Qt widget/GUI header or any VTK header: everything
# below viewers/ must stay headless and testable without a display.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bad=$(grep -rnE '#\s*include\s*[<"](Q(Widget|Application|MainWindow|Dialog|Painter|Image|OpenGL|Gui|Pixmap|Window)|QtWidgets|QtGui|QtOpenGL|vtk)' \
  "$root/core" "$root/annotation" --include='*.h' --include='*.cpp' || true)
if [ -n "$bad" ]; then
  echo "Layering violation: core/ and annotation/ must not include Qt GUI or VTK headers:"
  echo "$bad"
  exit 1
fi
# Lower layers must not include from higher ones.
up=$(grep -rnE '#\s*include\s*"(viewers|app|plugins)/' "$root/core" "$root/annotation" --include='*.h' --include='*.cpp' || true)
up2=$(grep -rnE '#\s*include\s*"(app|plugins)/' "$root/viewers" --include='*.h' --include='*.cpp' || true)
if [ -n "$up$up2" ]; then
  echo "Layering violation: a lower layer includes a higher one:"
  echo "$up$up2"
  exit 1
fi
echo "layers ok"
