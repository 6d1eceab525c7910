// Segmentation editing in the real window under Xvfb: strokes scripted through the
// ToolEventRouter with synthesized mouse events, checked in the pixels of every view.
#include <gtest/gtest.h>
#include <QCheckBox>

#include <QAction>
#include <QImage>
#include <cmath>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "annotation/tools/BrushTool.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/reading/SurfaceController.h"
#include "app/gui/shell/JobRunner.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VolumeView.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using delineate::test::blend;
using delineate::test::colourDistance;
using delineate::test::waitUntil;

namespace {

const QColor kMagenta(255, 0, 255);
constexpr int kBody = 127;                    // 40 HU in the CT soft-tissue window
constexpr double kFillAlpha = 128.0 / 255.0;  // default fill opacity 0.5

class SegmentationEditingTest : public test::EditingWindowTest {
 protected:
  // A magenta segment 1 in a new label map.
  void prepareSegment() {
    ASSERT_NE(session()->ensureLabelMap(), nullptr);
    session()->recolorSegment(1, {255, 0, 255});
    session()->document().undoStack().clear();  // the test's own undo entries only
  }

  // Pixels of the 3D view that differ (grey level by more than 20) within `r` pixels of `at`.
  static int changedAround(const QImage& a, const QImage& b, QPointF at, int r) {
    int n = 0;
    for (int y = int(at.y()) - r; y <= int(at.y()) + r; ++y) {
      for (int x = int(at.x()) - r; x <= int(at.x()) + r; ++x) {
        if (a.valid(x, y) && b.valid(x, y) &&
            std::abs(qGray(a.pixel(x, y)) - qGray(b.pixel(x, y))) > 20) {
          ++n;
        }
      }
    }
    return n;
  }

  bool waitSurfaces(int builds) {
    return waitUntil(
        [&] {
          return editing()->surfaces()->builds() > builds && !editing()->surfaces()->pending() &&
                 window_->views()->volumeView()->hasRenderedSurfaces();
        },
        60000);
  }
};

}  // namespace

TEST_F(SegmentationEditingTest, AxialBrushStrokeShowsInEveryViewAndUndoRemovesIt) {
  prepareSegment();
  const double z = centre()[2];
  // Before: body tissue everywhere the stroke will go.
  const core::Vec3 axialProbe{-26, 24, z};
  EXPECT_LE(colourDistance(colourAt(view(0), axialProbe), QColor(kBody, kBody, kBody)), 12);
  viewers::VolumeView* volume = window_->views()->volumeView();
  const QImage before3d = test::grabCanvas(volume->canvas());

  // A ball brush of 9 mm dragged along x in the axial view.
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(9);
  window_->action("tool.brushSphere")->trigger();
  const int builds = editing()->surfaces()->builds();
  stroke(view(0), {{-30, 20, z}, {-25, 20, z}, {-20, 20, z}, {-15, 20, z}, {-10, 20, z}});
  EXPECT_GT(countLabel(1), 800u);
  EXPECT_EQ(session()->document().undoStack().count(), 1u);
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Paint"));
  EXPECT_TRUE(window_->isWindowModified());

  // The other views' slices through the stroke: the linked cursor moves there.
  window_->views()->state()->setCursor({-20, 20, z});
  const core::Vec3 c = window_->views()->state()->cursor();
  const QColor painted = blend(kMagenta, kBody, kFillAlpha);
  const core::Vec3 coronalProbe{-26, c[1], z + 3};
  const core::Vec3 sagittalProbe{c[0], 24, z + 3};
  EXPECT_LE(colourDistance(colourAt(view(0), axialProbe), painted), 16)
      << colourAt(view(0), axialProbe).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(1), coronalProbe), painted), 16)
      << colourAt(view(1), coronalProbe).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(2), sagittalProbe), painted), 16)
      << colourAt(view(2), sagittalProbe).name().toStdString();
  // Outside the stroke the image is untouched (opposite side of the body).
  EXPECT_LE(colourDistance(colourAt(view(1), {26, c[1], z + 3}), QColor(kBody, kBody, kBody)), 12);

  // 3D: the surface appears where the stroke is.
  ASSERT_TRUE(waitSurfaces(builds));
  EXPECT_TRUE(volume->hasSurfaces());
  const QImage after3d = test::grabCanvas(volume->canvas());
  const qreal dpr = volume->canvas()->devicePixelRatioF();
  const QPointF at = volume->worldToCanvas({-20, 20, z}) * dpr;
  EXPECT_GT(changedAround(before3d, after3d, at, 6), 60) << "no surface where the stroke is";
  // ...and not far from it (the bead on the other side is unchanged).
  const QPointF away = volume->worldToCanvas({50, 0, 0}) * dpr;
  EXPECT_LT(changedAround(before3d, after3d, away, 6), 5);

  // Undo removes it from every view.
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(1), 0u);
  EXPECT_LE(colourDistance(colourAt(view(0), axialProbe), QColor(kBody, kBody, kBody)), 12);
  EXPECT_LE(colourDistance(colourAt(view(1), coronalProbe), QColor(kBody, kBody, kBody)), 12);
  EXPECT_LE(colourDistance(colourAt(view(2), sagittalProbe), QColor(kBody, kBody, kBody)), 12);
  ASSERT_TRUE(waitSurfaces(builds + 1));
  EXPECT_FALSE(volume->hasSurfaces());
  EXPECT_LT(changedAround(before3d, test::grabCanvas(volume->canvas()), at, 6), 5);
  // Redo brings it back.
  window_->action("edit.redo")->trigger();
  EXPECT_GT(countLabel(1), 800u);
  EXPECT_LE(colourDistance(colourAt(view(0), axialProbe), painted), 16);
}

TEST_F(SegmentationEditingTest, OverlayOpacityChangesPixels) {
  prepareSegment();
  const double z = centre()[2];
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(8);
  stroke(view(0), {{-20, 10, z}, {-20, 20, z}});
  const core::Vec3 probe{-20, 15, z};
  const QColor half = colourAt(view(0), probe);
  EXPECT_LE(colourDistance(half, blend(kMagenta, kBody, kFillAlpha)), 16);

  viewers::LabelDisplaySettings d = session()->display()->settings();
  d.opacity = 0;
  session()->display()->setSettings(d);
  EXPECT_LE(colourDistance(colourAt(view(0), probe), QColor(kBody, kBody, kBody)), 12);
  d.opacity = 1;
  d.fillOpacity = 1;
  session()->display()->setSettings(d);
  EXPECT_LE(colourDistance(colourAt(view(0), probe), kMagenta), 12);
  // Per segment too.
  session()->display()->setSegmentOpacity(*session()->activeMap(), 1, 0.5);
  EXPECT_LE(colourDistance(colourAt(view(0), probe), blend(kMagenta, kBody, kFillAlpha)), 16);
  // The outline is drawn at full (segment) opacity: the stroke's edge is more saturated than
  // its inside at fill opacity 0.5.
  d.fillOpacity = 0.5;
  session()->display()->setSettings(d);
  session()->display()->setSegmentOpacity(*session()->activeMap(), 1, 1);
  const QColor inside = colourAt(view(0), probe);
  EXPECT_LE(colourDistance(inside, blend(kMagenta, kBody, kFillAlpha)), 16);
}

TEST_F(SegmentationEditingTest, EraserAndBrushSizeKeys) {
  prepareSegment();
  const double z = centre()[2];
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(5);
  window_->action("tool.brushLarger")->trigger();
  EXPECT_NEAR(editing()->tools()->brushRadiusMm(), 6, 1e-9);
  window_->action("tool.brushSmaller")->trigger();
  EXPECT_NEAR(editing()->tools()->brushRadiusMm(), 5, 1e-9);
  stroke(view(0), {{-20, 0, z}, {0, 0, z}});
  const std::size_t painted = countLabel(1);
  ASSERT_GT(painted, 50u);
  window_->action("tool.eraser")->trigger();
  EXPECT_NEAR(editing()->tools()->eraser()->shape().radiusMm, 5, 1e-9);
  stroke(view(0), {{-20, 0, z}, {-10, 0, z}});
  EXPECT_LT(countLabel(1), painted);
  EXPECT_GT(countLabel(1), 0u);
  EXPECT_EQ(session()->document().undoStack().undoText(), "Erase");
}

TEST_F(SegmentationEditingTest, PaintWithinARangeLeavesOtherTissueAlone) {
  prepareSegment();
  const double z = centre()[2];
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(15);
  // Body tissue is 40 HU, air -1000 HU: a brush straddling the skin paints the body side only.
  editing()->tools()->setPaintRange(std::pair{0.0, 100.0});
  auto* enabled = window_->findChild<QCheckBox*>("paintRangeEnabled");
  ASSERT_NE(enabled, nullptr);
  EXPECT_TRUE(enabled->isChecked());
  stroke(view(0), {{0, -58, z}, {0, -56, z}});
  ASSERT_TRUE(waitSettled());
  const auto grid = session()->activeMap()->geometry();
  auto labelAt = [&](core::Vec3 p) {
    const core::Vec3 ijk = grid.worldToIndex(p);
    return session()->activeMap()->at(std::size_t(std::lround(ijk[0])),
                                      std::size_t(std::lround(ijk[1])),
                                      std::size_t(std::lround(ijk[2])));
  };
  EXPECT_EQ(labelAt({0, -50, z}), 1) << "body inside the brush is painted";
  EXPECT_EQ(labelAt({0, -68, z}), 0) << "air inside the brush is not";
  EXPECT_LE(colourDistance(colourAt(view(0), {0, -68, z}), QColor(0, 0, 0)), 12);
  // Unticking the box paints everywhere again.
  enabled->setChecked(false);
  stroke(view(0), {{0, -58, z}, {0, -56, z}});
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(labelAt({0, -68, z}), 1);
}

TEST_F(SegmentationEditingTest, RegionGrowClickFillsTheBodyInTheSlice) {
  prepareSegment();
  const double z = centre()[2];
  window_->action("tool.regionGrow")->trigger();
  // A click in the body grows over its values (mean +- 2.5 SD around the seed: 40 HU only):
  // the body's cross-section in this slice, without the bead.
  click(view(0), {-40, 0, z});
  ASSERT_TRUE(waitSettled());
  const std::size_t n = countLabel(1);
  // The ellipse 80 x 60 mm at 1.5 mm pixels: pi * 53.3 * 40 ~ 6700 voxels.
  EXPECT_GT(n, 6000u);
  EXPECT_LT(n, 7000u);
  EXPECT_EQ(session()->document().undoStack().undoText(), "Region grow");
  EXPECT_LE(colourDistance(colourAt(view(0), {-40, 0, z}), blend(kMagenta, kBody, kFillAlpha)), 16);
  EXPECT_LE(colourDistance(colourAt(view(0), {50, 0, z}), QColor(255, 255, 255)), 12)
      << "the bead is not body tissue";
  EXPECT_LE(colourDistance(colourAt(view(0), {0, -75, z}), QColor(0, 0, 0)), 12) << "air";

  // Shift+click grows in 3D: the body through every slice.
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(1), 0u);
  click(view(0), {-40, 0, z}, Qt::ShiftModifier);
  ASSERT_TRUE(waitSettled());
  EXPECT_GT(countLabel(1), 30 * n);
}

TEST_F(SegmentationEditingTest, LassoFillsTheOutline) {
  prepareSegment();
  const double z = centre()[2];
  window_->action("tool.lasso")->trigger();
  stroke(view(0), {{-30, -10, z}, {-10, -10, z}, {-10, 10, z}, {-30, 10, z}, {-30, -10, z}});
  // 20 x 20 mm at 1.5 mm: about 13 x 13 voxels, one slice.
  EXPECT_GT(countLabel(1), 140u);
  EXPECT_LT(countLabel(1), 230u);
  EXPECT_LE(colourDistance(colourAt(view(0), {-20, 0, z}), blend(kMagenta, kBody, kFillAlpha)), 16);
  // Scissors cut the part inside their outline, through all slices.
  window_->action("tool.scissors")->trigger();
  const std::size_t before = countLabel(1);
  stroke(view(0), {{-35, -15, z}, {-20, -15, z}, {-20, 15, z}, {-35, 15, z}, {-35, -15, z}});
  ASSERT_TRUE(waitSettled());  // worked out by a job: it reads every slice
  EXPECT_LT(countLabel(1), before);
  EXPECT_GT(countLabel(1), 0u);
}

TEST_F(SegmentationEditingTest, CtrlClickPicksTheSegmentUnderTheMouse) {
  prepareSegment();
  const double z = centre()[2];
  const std::uint16_t second = session()->addSegment();
  ASSERT_EQ(second, 2);
  ASSERT_EQ(session()->activeLabel(), 2);
  window_->action("tool.brush")->trigger();
  stroke(view(0), {{30, -20, z}, {30, -10, z}});
  session()->setActiveLabel(1);
  window_->action("tool.navigate")->trigger();
  click(view(0), {30, -15, z}, Qt::ControlModifier);
  EXPECT_EQ(session()->activeLabel(), 2);
}

TEST_F(SegmentationEditingTest, TwoLabelMapsBothShowSurfacesAndAreSavedSeparately) {
  prepareSegment();
  const double z = centre()[2];
  viewers::VolumeView* volume = window_->views()->volumeView();
  const QImage before3d = test::grabCanvas(volume->canvas());
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(9);
  window_->action("tool.brushSphere")->trigger();
  stroke(view(0), {{-30, 20, z}, {-20, 20, z}});
  const auto first = session()->activeMap();
  const auto second = session()->newLabelMap();
  ASSERT_NE(first, second);
  const int builds = editing()->surfaces()->builds();
  stroke(view(0), {{20, 20, z}, {30, 20, z}});
  EXPECT_GT(countLabel(1), 300u) << "the second map is painted";
  ASSERT_TRUE(waitSurfaces(builds));
  const QImage after3d = test::grabCanvas(volume->canvas());
  const qreal dpr = volume->canvas()->devicePixelRatioF();
  EXPECT_GT(changedAround(before3d, after3d, volume->worldToCanvas({-25, 20, z}) * dpr, 6), 60)
      << "the first (inactive) map's surface";
  EXPECT_GT(changedAround(before3d, after3d, volume->worldToCanvas({25, 20, z}) * dpr, 6), 60)
      << "the active map's surface";

  // Saving the active map leaves the other one unsaved, and the window says so.
  bool saved = false;
  QObject::connect(editing()->files(), &app::LabelFileController::saved, [&] { saved = true; });
  editing()->files()->saveTo(QString::fromStdString((dir_ / "second.nii.gz").string()));
  ASSERT_TRUE(waitUntil([&] { return saved; }));
  EXPECT_FALSE(session()->isModified(*second));
  EXPECT_TRUE(session()->isModified(*first));
  EXPECT_TRUE(window_->isWindowModified());
  session()->setActiveLabelMap(0);
  saved = false;
  editing()->files()->saveTo(QString::fromStdString((dir_ / "first.nii.gz").string()));
  ASSERT_TRUE(waitUntil([&] { return saved; }));
  EXPECT_FALSE(window_->isWindowModified());
}
