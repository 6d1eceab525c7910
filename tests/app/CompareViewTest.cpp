// The compare view in the real window: two label maps of the synthetic CT compared through the
// Compare panel; the agreement overlay's colours where the maps agree and disagree (and gone
// when a class is toggled off), the per-slice Dice strip and plot, worst-slice keys, the sortable
// metrics table and its CSV and PNG exports.
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTableWidget>
#include <cmath>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/compare/CompareController.h"
#include "app/gui/compare/CompareDock.h"
#include "app/gui/compare/CompareFeature.h"
#include "app/gui/compare/SliceDiceChart.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/reading/SurfaceController.h"
#include "app/gui/shell/NumericTableItem.h"
#include "core/model/Segment.h"
#include "viewers/SliceScoreStrip.h"
#include "viewers/SliceView.h"
#include "viewers/SurfaceDistanceColoring.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"
#include "viewers/VolumeView.h"

namespace delineate::test {

namespace {

constexpr int kBody = 127;
constexpr double kFillAlpha = 128.0 / 255.0;
const QColor kAgreement(0, 158, 115);
const QColor kTestOnly(230, 159, 0);
const QColor kReferenceOnly(86, 180, 233);

// Reference: a 30 x 30 voxel square on axial slices 15..24. Test: the same square shifted by 8
// voxels along i on slices 15..19, exact on 20..24, and an extra square on slice 25.
// "oedema": 10 x 10 voxels on slices 30..33 in the reference, half of it in the test.
constexpr double kShiftedDice = 2.0 * 22 * 30 / (2 * 30 * 30);
constexpr double kOedemaDice = 2.0 * 50 / (100 + 50);

void box(core::LabelMap& map, std::size_t i0, std::size_t k0, std::size_t k1,
         std::size_t width = 30, std::size_t j1 = 70, std::uint16_t label = 1) {
  for (std::size_t k = k0; k < k1; ++k) {
    for (std::size_t j = 40; j < j1; ++j) {
      for (std::size_t i = i0; i < i0 + width; ++i) {
        map.mutableData()[map.index(i, j, k)] = label;
      }
    }
  }
}

class CompareViewTest : public EditingWindowTest {
 protected:
  void SetUp() override {
    EditingWindowTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) {
      return;
    }
    const core::ImageGeometry& g = session()->image()->geometry();
    core::Segment tumour = core::defaultSegment(1);
    tumour.name = "tumour";
    core::Segment oedema = core::defaultSegment(2);
    oedema.name = "oedema";
    auto reference = std::make_shared<core::LabelMap>("expert", g, std::vector{tumour, oedema});
    auto test = std::make_shared<core::LabelMap>("model", g, std::vector{tumour, oedema});
    box(*reference, 40, 15, 25);
    box(*test, 48, 15, 20);
    box(*test, 40, 20, 26);
    box(*reference, 10, 30, 34, 10, 50, 2);
    box(*test, 10, 30, 34, 5, 50, 2);
    session()->addLabelMap(reference);
    session()->addLabelMap(test);
    grid_ = g;
    compare_ = window_->compare();
    dock_ = compare_->panel();
  }

  core::Vec3 world(double i, double j, double k) const { return grid_.indexToWorld({i, j, k}); }

  bool compareMaps() {
    window_->action("analysis.compare")->trigger();
    dock_->referenceCombo()->setCurrentIndex(0);
    dock_->testCombo()->setCurrentIndex(1);
    bool done = false;
    QObject::connect(compare_->controller(), &app::CompareController::computed,
                     [&done] { done = true; });
    dock_->compareButton()->click();
    return waitUntil([&] { return done; }, 60000) && waitSettled();
  }

  core::ImageGeometry grid_;
  app::CompareFeature* compare_ = nullptr;
  app::CompareDock* dock_ = nullptr;
};

TEST_F(CompareViewTest, OverlayColoursShowWhereTheMapsAgreeAndDisagree) {
  ASSERT_TRUE(compareMaps());
  EXPECT_TRUE(compare_->dock()->isVisible());
  // Axial slice 17: the reference square at i 40..69, the test's at 48..77.
  view(0)->setSliceIndex(17);
  const core::Vec3 both = world(60, 55, 17), referenceOnly = world(43, 55, 17),
                   testOnly = world(74, 55, 17), neither = world(90, 55, 17);
  const QColor grey(kBody, kBody, kBody);
  EXPECT_LE(colourDistance(colourAt(view(0), both), blend(kAgreement, kBody, kFillAlpha)), 16)
      << colourAt(view(0), both).name().toStdString();
  EXPECT_LE(
      colourDistance(colourAt(view(0), referenceOnly), blend(kReferenceOnly, kBody, kFillAlpha)),
      16)
      << colourAt(view(0), referenceOnly).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(0), testOnly), blend(kTestOnly, kBody, kFillAlpha)), 16)
      << colourAt(view(0), testOnly).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(0), neither), grey), 12);

  // Toggling the false positives off leaves the image there; the others stay.
  dock_->classCheck(app::CompareController::TestOnly)->setChecked(false);
  EXPECT_LE(colourDistance(colourAt(view(0), testOnly), grey), 12)
      << colourAt(view(0), testOnly).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(0), both), blend(kAgreement, kBody, kFillAlpha)), 16);

  // Clear leaves compare mode: the label maps are drawn again (the test map, active, on top).
  compare_->controller()->clear();
  EXPECT_FALSE(view(0)->scoreStrip()->isVisible());
  const QColor mapColour(core::defaultSegment(1).color[0], core::defaultSegment(1).color[1],
                         core::defaultSegment(1).color[2]);
  EXPECT_LE(colourDistance(colourAt(view(0), testOnly), blend(mapColour, kBody, kFillAlpha)), 16)
      << colourAt(view(0), testOnly).name().toStdString();
}

TEST_F(CompareViewTest, SliceStripPlotAndWorstSliceKeys) {
  ASSERT_TRUE(compareMaps());
  viewers::SliceScoreStrip* strip = view(0)->scoreStrip();
  ASSERT_TRUE(strip->isVisible());
  const std::vector<double>& scores = strip->scores();
  ASSERT_EQ(scores.size(), grid_.size[2]);
  EXPECT_TRUE(std::isnan(scores[14]));
  EXPECT_NEAR(scores[15], kShiftedDice, 1e-12);
  EXPECT_NEAR(scores[19], kShiftedDice, 1e-12);
  EXPECT_DOUBLE_EQ(scores[20], 1.0);
  EXPECT_DOUBLE_EQ(scores[25], 0.0);
  EXPECT_TRUE(std::isnan(scores[26]));
  EXPECT_NEAR(scores[31], kOedemaDice, 1e-12);
  // The strip is drawn in the score's colour at the slice's slider position.
  const QImage strip_image = strip->grab().toImage();
  const int row = strip->rowOf(25);
  EXPECT_LE(colourDistance(strip_image.pixelColor(strip->width() / 2, row),
                           viewers::SliceScoreStrip::colorOf(0.0)),
            2);
  EXPECT_EQ(strip->sliceAt(row), 25);
  // ... level with the slider's handle when the view shows that slice.
  for (int slice : {0, 17, 25, 39}) {
    view(0)->setSliceIndex(slice);
    QStyleOptionSlider option;
    option.initFrom(view(0)->slider());
    option.orientation = Qt::Vertical;
    option.minimum = view(0)->slider()->minimum();
    option.maximum = view(0)->slider()->maximum();
    option.sliderPosition = option.sliderValue = view(0)->slider()->value();
    option.upsideDown = true;
    const QRect handle = view(0)->slider()->style()->subControlRect(
        QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, view(0)->slider());
    const int handleCentre =
        strip->mapFrom(view(0), view(0)->slider()->mapTo(view(0), handle.center())).y();
    EXPECT_NEAR(strip->rowOf(slice), handleCentre, 2) << slice;
  }
  // The other views' strips: the sagittal slices along i cross both squares.
  EXPECT_TRUE(view(2)->scoreStrip()->isVisible());
  EXPECT_EQ(view(2)->scoreStrip()->scores().size(), grid_.size[0]);

  // Worst first: slice 25 (Dice 0), then 30..33 (oedema), then 15..19, then 20..24.
  view(0)->setSliceIndex(2);
  window_->action("analysis.nextWorstSlice")->trigger();
  EXPECT_EQ(view(0)->sliceIndex(), 25);
  EXPECT_TRUE(dock_->worstLabel()->text().contains(QStringLiteral("1 of 15")))
      << dock_->worstLabel()->text().toStdString();
  window_->action("analysis.nextWorstSlice")->trigger();
  EXPECT_EQ(view(0)->sliceIndex(), 30);
  for (int step = 0; step < 4; ++step) {
    window_->action("analysis.nextWorstSlice")->trigger();
  }
  EXPECT_EQ(view(0)->sliceIndex(), 15);
  window_->action("analysis.previousWorstSlice")->trigger();
  EXPECT_EQ(view(0)->sliceIndex(), 33);
  view(0)->setSliceIndex(15);
  EXPECT_EQ(dock_->chart()->currentSlice(), 15);
  // The plot: one curve over slices 15..25, one over 30..33.
  EXPECT_EQ(dock_->chart()->segmentCount(), 2);
  // Clicking the strip goes to a slice.
  Q_EMIT strip->sliceClicked(21);
  EXPECT_EQ(view(0)->sliceIndex(), 21);

  // For looking at: the window in compare mode on a slice where the maps disagree.
  view(0)->setSliceIndex(17);
  ASSERT_TRUE(waitSettled());
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(window_->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/compare-view.png")));
}

TEST_F(CompareViewTest, TableSortsAndExports) {
  ASSERT_TRUE(compareMaps());
  QTableWidget* table = dock_->table();
  ASSERT_EQ(table->rowCount(), 2);
  // Dice over the volume: 5 slices shifted, 5 exact, one test-only slice.
  const double agree = 5 * 22 * 30 + 5 * 30 * 30;
  const double tumourDice = 2 * agree / (10 * 900 + 11 * 900);
  const auto diceOf = [&](int row) {
    const auto* item = dynamic_cast<app::NumericTableItem*>(table->item(row, 1));
    return item ? item->value() : -1.0;
  };
  // Sorted by Dice, ascending then descending (clicking the header).
  table->sortItems(1, Qt::AscendingOrder);
  EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("oedema"));
  EXPECT_NEAR(diceOf(0), kOedemaDice, 1e-12);
  EXPECT_NEAR(diceOf(1), tumourDice, 1e-12);
  table->sortItems(1, Qt::DescendingOrder);
  EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("tumour"));
  // The label filter offers each label; one label alone compares only it.
  ASSERT_EQ(dock_->labelCombo()->count(), 3);
  EXPECT_EQ(dock_->labelCombo()->itemText(2), QStringLiteral("oedema"));
  EXPECT_TRUE(dock_->summaryLabel()->text().contains(QStringLiteral("model")))
      << dock_->summaryLabel()->text().toStdString();

  const QString csv = QString::fromStdString((dir_ / "table.csv").string());
  ASSERT_TRUE(dock_->exportTable(csv));
  QFile file(csv);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(file.readAll());
  EXPECT_TRUE(text.startsWith(QStringLiteral("case,"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("tumour"))) << text.toStdString();
  const QString png = QString::fromStdString((dir_ / "plot.png").string());
  ASSERT_TRUE(dock_->exportPlot(png));
  const QImage plot(png);
  EXPECT_GT(plot.width(), 100);
  QString error;
  EXPECT_FALSE(dock_->exportTable(QStringLiteral("/nonexistent-dir/table.csv"), &error));
  EXPECT_TRUE(error.contains(QStringLiteral("/nonexistent-dir/table.csv"))) << error.toStdString();
}

TEST_F(CompareViewTest, SurfacesShowSignedDistanceToTheReference) {
  ASSERT_TRUE(compareMaps());
  const app::CompareController::Result* r = compare_->controller()->result();
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->surfaces);
  vtkDataArray* d = r->surfaces->GetPointData()->GetArray(viewers::kSignedDistanceArray);
  ASSERT_NE(d, nullptr);
  double range[2];
  d->GetRange(range);
  // The test's face at i = 47.5 lies 8 voxels (12 mm) inside the reference's at 39.5, its face at
  // 77.5 as far outside; smoothing rounds the corners a little.
  EXPECT_NEAR(range[0], -12.0, 1.5);
  EXPECT_NEAR(range[1], 12.0, 1.5);
  EXPECT_TRUE(editing()->surfaces()->showsDistances());
  viewers::VolumeView* volume = window_->views()->volumeView();
  EXPECT_GE(volume->surfaceDistanceRange(), 11.0);
  // Both ends of the scale appear on screen (left of the legend): red where the test is outside
  // the reference (its patient-left face, seen from the front), blue where it is inside (its
  // patient-right face, seen once the camera turns to that side).
  const auto count = [&](bool red) {
    EXPECT_TRUE(waitUntil([&] { return volume->hasRenderedSurfaces(); }));
    const QImage frame = grabCanvas(volume->canvas());
    int n = 0;
    for (int y = 0; y < frame.height(); y += 2) {
      for (int x = 0; x < frame.width() * 8 / 10; x += 2) {
        const QColor c = frame.pixelColor(x, y);
        n += red ? c.red() > c.blue() + 80 && c.red() > c.green() + 60 : c.blue() > c.red() + 80;
      }
    }
    return n;
  };
  EXPECT_GT(count(true), 20);
  EXPECT_EQ(count(false), 0);
  volume->rotate(-70, 0);
  int bluish = count(false);
  if (bluish == 0) {
    volume->rotate(140, 0);
    bluish = count(false);
  }
  EXPECT_GT(bluish, 20);
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  grabCanvas(volume->canvas())
      .save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/compare-distance-3d.png"));

  // Leaving compare mode brings back the segment surfaces in their colours.
  compare_->controller()->clear();
  EXPECT_FALSE(editing()->surfaces()->showsDistances());
  EXPECT_EQ(volume->surfaceDistanceRange(), 0.0);
}

TEST_F(CompareViewTest, RefusesToCompareAMapWithItself) {
  window_->action("analysis.compare")->trigger();
  dock_->referenceCombo()->setCurrentIndex(1);
  dock_->testCombo()->setCurrentIndex(1);
  dock_->compareButton()->click();
  EXPECT_EQ(compare_->controller()->result(), nullptr);
  EXPECT_FALSE(compare_->controller()->busy());
}

}  // namespace

}  // namespace delineate::test
