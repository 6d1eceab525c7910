#pragma once
// A workstation window with the synthetic CT loaded, for the segmentation editing GUI tests:
// synthesized mouse strokes through the slice views (the real ToolEventRouter path), pixel
// colours read back from the GL framebuffers, and waits for jobs, surfaces and measurements.
#include <gtest/gtest.h>

#include <QColor>
#include <QImage>
#include <QPointF>
#include <filesystem>
#include <memory>
#include <vector>

#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "core/model/ImageGeometry.h"

namespace delineate::viewers {
class SliceView;
}

namespace delineate::app {
class EditingFeature;
class EditSession;
}  // namespace delineate::app

namespace delineate::test {

class EditingWindowTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  app::EditingFeature* editing() const;
  app::EditSession* session() const;
  viewers::SliceView* view(int index) const;  // 0 axial, 1 coronal, 2 sagittal
  // The cursor position after loading (the centre voxel).
  core::Vec3 centre() const { return centre_; }

  // A left-button drag through `points` (LPS mm) in `view`; the points must lie on its slice.
  void stroke(viewers::SliceView* view, const std::vector<core::Vec3>& points,
              Qt::KeyboardModifiers modifiers = Qt::NoModifier);
  void click(viewers::SliceView* view, const core::Vec3& point,
             Qt::KeyboardModifiers modifiers = Qt::NoModifier);
  // Writes `image` into the test folder as `fileName` (NIfTI), opens it in the window and waits
  // until it is shown and settled (a GoogleTest failure otherwise).
  void openImage(const core::Volume& image, const std::string& fileName);
  // Opens a file or folder in the window and waits until it is shown and settled.
  void openPathAndWait(const std::filesystem::path& path);
  // Waits until no edit job, measurement or surface build is pending and all views rendered.
  bool waitSettled(int timeoutMs = 60000);
  // Colour of a world point in a freshly rendered frame of `view` (median of a 3x3 square).
  QColor colourAt(viewers::SliceView* view, const core::Vec3& world);
  // Voxels of the active label map with value `label` (all non-zero when 0).
  std::size_t countLabel(std::uint16_t label = 0) const;
  // The active label map's voxels, copied.
  std::vector<std::uint16_t> labelVoxels() const;

  // Set in a derived constructor: load the CT as a DICOM series instead of a NIfTI file.
  bool loadAsDicom_ = false;
  // Set in a derived constructor: dialogs are shown (tests answer them, see answerNextDialog).
  bool interactive_ = false;
  TempDir dir_;
  std::unique_ptr<app::MainWindow> window_;
  std::vector<QString> errors_;
  core::Vec3 centre_{};
};

// The colour `segment` blended at `alpha` over the grey level `gray`.
QColor blend(const QColor& segment, int gray, double alpha);
// Largest per-channel difference.
int colourDistance(const QColor& a, const QColor& b);

}  // namespace delineate::test
