#pragma once
// Helpers for the GUI tests: a QApplication created once (only when an X display exists), skip
// macros, waiting for renders and reading pixels back.
#include <gtest/gtest.h>

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QSettings>
#include <functional>

#include "core/model/LabelMap.h"

namespace delineate::viewers {
class VtkOpenGLWidget;
}

namespace delineate::test {

// True when a QApplication with an X display runs in this process.
bool guiAvailable();

// Runs the event loop until `done` returns true or `timeoutMs` passes; returns done().
bool waitUntil(const std::function<bool()>& done, int timeoutMs = 30000);

// Non-zero voxels of a label map (0 for none): the size of an AI proposal.
std::size_t nonZeroVoxels(const core::LabelMap* labels);

// Renders the canvas (paintGL) and reads its framebuffer.
QImage grabCanvas(viewers::VtkOpenGLWidget* canvas);

// Grey level (0..255) at a logical-pixel position of a grabbed canvas.
int grayAt(const QImage& image, const QPointF& logical, qreal dpr = 1.0);
// Median grey level in a (2r+1)^2 square around a logical position (robust to the 1-pixel
// crosshair lines crossing it).
double medianGray(const QImage& image, const QPointF& logical, int r = 2, qreal dpr = 1.0);

// Removes the AI servers a test added to the settings when it ends, so that the next test of the
// process starts without them.
struct ForgetServers {
  ~ForgetServers() { QSettings().remove(QStringLiteral("ai/servers")); }
};

// The DICOM nodes and calling AE title: none when a test starts, none left when it ends.
struct ForgetPacsNodes {
  ForgetPacsNodes() { QSettings().remove(QStringLiteral("pacs")); }
  ~ForgetPacsNodes() { QSettings().remove(QStringLiteral("pacs")); }
};

}  // namespace delineate::test

#define DELINEATE_REQUIRE_GUI()                                         \
  do {                                                                  \
    if (!::delineate::test::guiAvailable()) {                           \
      GTEST_SKIP() << "no X display (DISPLAY unset): GUI test skipped"; \
    }                                                                   \
  } while (0)
