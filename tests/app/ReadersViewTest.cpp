// The readers view in the real window: three readers' maps of the synthetic CT (one numbers the
// structure differently) compared through the Readers dock; the heat map's cells and colours, the
// votes drawn on the slices, stepping through the disagreement regions with J / Shift+J, and
// adjudication: the majority-vote start, taking one reader's version of a region as one undo step
// (named in Edit > Undo, taken back by Undo), and signing, which writes the record beside the
// saved map. Side by side, each reader's version in its own tile follows the cursor.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <cmath>
#include <cstdlib>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/readers/AgreementHeatMap.h"
#include "app/gui/readers/ReadersController.h"
#include "app/gui/readers/ReadersDock.h"
#include "app/gui/readers/ReadersFeature.h"
#include "app/gui/readers/ReadersSideBySide.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/CorrectionRecord.h"
#include "core/model/Segment.h"
#include "viewers/SliceView.h"

namespace delineate::test {

namespace {

constexpr int kBody = 127;
constexpr double kFillAlpha = 128.0 / 255.0;
const QColor kAllThree(0, 158, 115);  // 3 of 3 readers
const QColor kTwo(240, 228, 66);      // 2 of 3
const QColor kOne(213, 94, 0);        // 1 of 3

void box(core::LabelMap& map, std::uint16_t label, std::size_t i0, std::size_t i1, std::size_t k0,
         std::size_t k1) {
  for (std::size_t k = k0; k < k1; ++k) {
    for (std::size_t j = 40; j < 70; ++j) {
      for (std::size_t i = i0; i < i1; ++i) {
        map.mutableData()[map.index(i, j, k)] = label;
      }
    }
  }
}

core::Segment tumour(std::uint16_t label) {
  core::Segment s = core::defaultSegment(label);
  s.name = "tumour";
  return s;
}

// A: a 30x30 square on axial slices 15..24. B (tumour = 2): the same plus a strip i 70..77 on
// slices 15..19 (1 200 voxels that only B marked). C: the square on 15..22 only (slices 23 and
// 24: 1 800 voxels that A and B marked).
constexpr double kA = 9000, kB = 10200, kC = 7200;

class ReadersViewTest : public EditingWindowTest {
 protected:
  void SetUp() override {
    EditingWindowTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) {
      return;
    }
    const core::ImageGeometry& g = session()->image()->geometry();
    auto a = std::make_shared<core::LabelMap>("Dr A", g, std::vector{tumour(1)});
    core::Segment oedema = core::defaultSegment(1);
    oedema.name = "oedema";
    auto b = std::make_shared<core::LabelMap>("Dr B", g, std::vector{oedema, tumour(2)});
    auto c = std::make_shared<core::LabelMap>("Dr C", g, std::vector{tumour(1)});
    box(*a, 1, 40, 70, 15, 25);
    box(*b, 2, 40, 70, 15, 25);
    box(*b, 2, 70, 78, 15, 20);
    box(*c, 1, 40, 70, 15, 23);
    session()->addLabelMap(a);
    session()->addLabelMap(b);
    session()->addLabelMap(c);
    grid_ = g;
    feature_ = window_->readers();
    dock_ = feature_->panel();
    controller_ = feature_->controller();
  }

  core::Vec3 world(double i, double j, double k) const { return grid_.indexToWorld({i, j, k}); }

  // With DELINEATE_TEST_SHOTS set to a folder, the window as it is now, to look at.
  void keepShot(const char* name) {
    if (const char* folder = std::getenv("DELINEATE_TEST_SHOTS")) {
      window_->grab().save(QString::fromLocal8Bit(folder) + QLatin1Char('/') + QLatin1String(name) +
                           QStringLiteral(".png"));
    }
  }

  bool compareReaders() {
    window_->action("review.readers")->trigger();
    dock_->setReaders({0, 1, 2});
    const int t = dock_->structureCombo()->findText(QStringLiteral("tumour"));
    if (t < 0) {
      ADD_FAILURE() << "no tumour in the structure list";
      return false;
    }
    dock_->structureCombo()->setCurrentIndex(t);
    bool done = false;
    QObject::connect(controller_, &app::ReadersController::computed, [&done] { done = true; });
    dock_->compareButton()->click();
    return waitUntil([&] { return done; }, 60000) && waitSettled();
  }

  core::ImageGeometry grid_;
  app::ReadersFeature* feature_ = nullptr;
  app::ReadersDock* dock_ = nullptr;
  app::ReadersController* controller_ = nullptr;
};

TEST_F(ReadersViewTest, HeatMapAndVotesOnTheSlices) {
  ASSERT_TRUE(compareReaders());
  EXPECT_TRUE(feature_->dock()->isVisible());
  app::AgreementHeatMap* heat = dock_->heatMap();
  ASSERT_EQ(heat->readers(), 3);
  EXPECT_NEAR(heat->dice(0, 1), 2 * kA / (kA + kB), 1e-9);
  EXPECT_NEAR(heat->dice(0, 2), 2 * kC / (kA + kC), 1e-9);
  EXPECT_NEAR(heat->dice(1, 2), 2 * kC / (kB + kC), 1e-9);
  EXPECT_DOUBLE_EQ(heat->dice(2, 1), heat->dice(1, 2));
  // The cells are drawn in their Dice's colour (a corner, away from the numbers), the best pair
  // lighter than the worst on the viridis scale.
  const QImage image = heat->grab().toImage();
  const qreal dpr = image.devicePixelRatio();
  const auto cell = [&](int i, int j) {
    const QPoint p = heat->cellRect(i, j).topLeft() + QPoint(3, 3);
    return image.pixelColor(QPoint(int(p.x() * dpr), int(p.y() * dpr)));
  };
  EXPECT_LE(colourDistance(cell(0, 1), app::AgreementHeatMap::colorOf(heat->dice(0, 1))), 2);
  EXPECT_LE(colourDistance(cell(1, 2), app::AgreementHeatMap::colorOf(heat->dice(1, 2))), 2);
  EXPECT_LE(colourDistance(cell(1, 1), app::AgreementHeatMap::colorOf(1.0)), 2);
  const auto luminance = [](const QColor& c) {
    return 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue();
  };
  EXPECT_GT(luminance(cell(0, 1)), luminance(cell(1, 2)));

  // The votes on the slices: all three, two (slice 23: C stopped at 22), one (B's strip).
  view(0)->setSliceIndex(17);
  EXPECT_LE(
      colourDistance(colourAt(view(0), world(55, 55, 17)), blend(kAllThree, kBody, kFillAlpha)), 16)
      << colourAt(view(0), world(55, 55, 17)).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(0), world(74, 55, 17)), blend(kOne, kBody, kFillAlpha)),
            16)
      << colourAt(view(0), world(74, 55, 17)).name().toStdString();
  EXPECT_LE(colourDistance(colourAt(view(0), world(90, 55, 17)), QColor(kBody, kBody, kBody)), 12);
  view(0)->setSliceIndex(23);
  EXPECT_LE(colourDistance(colourAt(view(0), world(55, 55, 23)), blend(kTwo, kBody, kFillAlpha)),
            16)
      << colourAt(view(0), world(55, 55, 23)).name().toStdString();

  keepShot("readers-votes");
  // Votes off: the readers' maps are drawn again (B's strip in B's colour for its value 2).
  dock_->overlayCheck()->setChecked(false);
  view(0)->setSliceIndex(17);
  const auto bColour = core::defaultSegment(2).color;
  EXPECT_LE(colourDistance(colourAt(view(0), world(74, 55, 17)),
                           blend(QColor(bColour[0], bColour[1], bColour[2]), kBody, kFillAlpha)),
            16)
      << colourAt(view(0), world(74, 55, 17)).name().toStdString();
}

// A tile's pixel: in its reader's colour (the reader marked it) or grey (white-tinted: only
// other readers did, or nobody).
bool inColour(const QColor& c) {
  return std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) > 40;
}

TEST_F(ReadersViewTest, SideBySideEachReadersVersionFollowsTheCursor) {
  ASSERT_TRUE(compareReaders());
  app::ReadersSideBySide* side = feature_->sideBySide();
  EXPECT_FALSE(feature_->sideBySideDock()->isVisible());
  dock_->sideBySideButton()->click();
  ASSERT_TRUE(waitUntil([&] { return feature_->sideBySideDock()->isVisible(); }));
  EXPECT_TRUE(window_->action("review.sideBySide")->isChecked());
  ASSERT_EQ(side->tiles(), 3);

  // On slice 17, in the strip only Dr B marked: B's tile in B's colour, A's and C's not.
  window_->views()->state()->setCursor(world(74, 55, 17));
  ASSERT_TRUE(waitSettled());
  const auto strip = side->pixelOf({74, 55, 17});
  ASSERT_TRUE(strip.has_value());
  EXPECT_FALSE(inColour(side->tile(0).pixelColor(*strip)));
  EXPECT_TRUE(inColour(side->tile(1).pixelColor(*strip)));
  EXPECT_FALSE(inColour(side->tile(2).pixelColor(*strip)));
  const QColor b = side->tile(1).pixelColor(*strip);
  EXPECT_GT(b.blue(), b.red() + 40) << "Dr B's sky blue";
  // Where all three marked it, each tile has its reader's own colour.
  const auto square = side->pixelOf({50, 55, 17});
  ASSERT_TRUE(square.has_value());
  for (int r = 0; r < 3; ++r) {
    EXPECT_TRUE(inColour(side->tile(r).pixelColor(*square))) << r;
  }
  const QColor a = side->tile(0).pixelColor(*square);
  EXPECT_GT(a.red(), a.blue() + 60) << "Dr A's orange";
  // The widget draws the tiles: Dr B's tile shows the strip in its colour there.
  const QImage drawn = side->grab().toImage();
  const QRect t = side->tileRect(1);
  const QImage tileB = side->tile(1);
  const QPointF at(t.left() + (strip->x() + 0.5) * t.width() / tileB.width(),
                   t.top() + (strip->y() + 0.5) * t.height() / tileB.height());
  const qreal dpr = drawn.devicePixelRatio();
  EXPECT_LE(colourDistance(drawn.pixelColor(QPoint(int(at.x() * dpr), int(at.y() * dpr))),
                           tileB.pixelColor(*strip)),
            30);

  // Slice 23, which Dr C left out: C's tile is not coloured there, A's is; J moves the tiles.
  window_->views()->state()->setCursor(world(50, 55, 23));
  ASSERT_TRUE(waitSettled());
  const auto missed = side->pixelOf({50, 55, 23});
  ASSERT_TRUE(missed.has_value());
  EXPECT_FALSE(side->pixelOf({50, 55, 17}).has_value()) << "another slice now";
  EXPECT_TRUE(inColour(side->tile(0).pixelColor(*missed)));
  EXPECT_FALSE(inColour(side->tile(2).pixelColor(*missed)));

  // Coronal: the slice through j = 55 holds both voxels.
  auto* plane =
      feature_->sideBySideDock()->findChild<QComboBox*>(QStringLiteral("sideBySidePlane"));
  ASSERT_NE(plane, nullptr);
  plane->setCurrentIndex(1);
  EXPECT_EQ(side->plane(), app::ReadersSideBySide::Plane::Coronal);
  EXPECT_TRUE(side->pixelOf({74, 55, 17}).has_value());
  EXPECT_TRUE(side->pixelOf({50, 55, 23}).has_value());
  EXPECT_FALSE(side->pixelOf({50, 50, 23}).has_value());
  keepShot("readers-side-by-side");
}

TEST_F(ReadersViewTest, StepThroughRegionsAdjudicateUndoAndSign) {
  // Dr C's map (active: added last) saved, with the correction record of the AI that proposed it
  // beside it: the signed record says how that reader's map was made.
  bool saved = false;
  QObject::connect(editing()->files(), &app::LabelFileController::saved,
                   [&saved] { saved = true; });
  ASSERT_TRUE(
      editing()->files()->saveTo(QString::fromStdString((dir_.path() / "drC.nii.gz").string())));
  ASSERT_TRUE(waitUntil([&] { return saved; }) && waitSettled());
  core::CorrectionRecord drawn;
  drawn.backend = "MONAI Label at http://gpu-box:8000";
  drawn.model = "deepedit";
  drawn.tools = {{"tool.brush", 3}};
  core::writeCorrectionRecord(drawn, dir_.path() / "drC.correction.json");
  ASSERT_TRUE(compareReaders());
  EXPECT_FALSE(dock_->nextButton()->text().isEmpty());
  window_->action("review.nextDisagreement")->trigger();
  EXPECT_TRUE(dock_->regionLabel()->text().contains(QStringLiteral("Region 1 of 2: 1800 voxels")))
      << dock_->regionLabel()->text().toStdString();
  EXPECT_TRUE(dock_->regionLabel()->text().contains(QStringLiteral("not by Dr C")));
  EXPECT_TRUE(view(0)->sliceIndex() == 23 || view(0)->sliceIndex() == 24) << view(0)->sliceIndex();
  window_->action("review.nextDisagreement")->trigger();
  EXPECT_TRUE(dock_->regionLabel()->text().contains(QStringLiteral("1200 voxels, marked by Dr B")))
      << dock_->regionLabel()->text().toStdString();
  EXPECT_GE(view(0)->sliceIndex(), 15);
  EXPECT_LE(view(0)->sliceIndex(), 19);
  EXPECT_FALSE(dock_->nextButton()->isEnabled());
  window_->action("review.previousDisagreement")->trigger();
  EXPECT_EQ(controller_->review()->current(), 0);

  // Adjudication starts from the majority: everything at least two readers marked.
  EXPECT_FALSE(dock_->signButton()->isEnabled());
  bool started = false;
  QObject::connect(controller_, &app::ReadersController::adjudicationStarted,
                   [&started] { started = true; });
  dock_->startButton()->click();
  ASSERT_TRUE(waitUntil([&] { return started; }) && waitSettled());
  ASSERT_EQ(session()->activeMap()->name(), "Adjudicated: tumour");
  const std::uint16_t label = session()->activeMap()->segments().front().label;
  EXPECT_EQ(countLabel(label), std::size_t(kA));
  // The votes are put away: the slices show the maps, the adjudicated one on top (slice 23,
  // where two readers marked it: the segment's green over the readers', not the votes' yellow).
  EXPECT_FALSE(dock_->overlayCheck()->isChecked());
  EXPECT_EQ(session()->display()->comparison(), nullptr);
  view(0)->setSliceIndex(23);
  const auto c = session()->activeMap()->segments().front().color;
  const QColor shown = colourAt(view(0), world(55, 55, 23));
  const QColor votesYellow = blend(kTwo, kBody, kFillAlpha);
  EXPECT_GT(colourDistance(shown, votesYellow), 30) << shown.name().toStdString();
  EXPECT_LT(colourDistance(shown, QColor(c[0], c[1], c[2])), colourDistance(shown, votesYellow))
      << shown.name().toStdString();

  // Region 1 as C drew it (without slices 23 and 24): one undo step, named.
  ASSERT_EQ(dock_->takeButtons().size(), 3u);
  int taken = 0;
  QObject::connect(controller_, &app::ReadersController::regionTaken, [&taken] { ++taken; });
  dock_->takeButtons()[2]->click();
  ASSERT_TRUE(waitUntil([&] { return taken == 1; }) && waitSettled());
  EXPECT_EQ(countLabel(label), std::size_t(kC));
  QAction* undo = window_->action("edit.undo");
  EXPECT_TRUE(undo->text().contains(QStringLiteral("Take Dr C in region 1")))
      << undo->text().toStdString();
  undo->trigger();
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(countLabel(label), std::size_t(kA));

  // Region 2 as B drew it (with the strip).
  window_->action("review.nextDisagreement")->trigger();
  dock_->takeButtons()[1]->click();
  ASSERT_TRUE(waitUntil([&] { return taken == 2; }) && waitSettled());
  EXPECT_EQ(countLabel(label), std::size_t(kB));

  keepShot("readers-adjudication");
  // Sign: saved where it was saved before, the record beside it.
  const std::filesystem::path file = dir_.path() / "adjudicated.nii.gz";
  saved = false;
  QObject::connect(editing()->files(), &app::LabelFileController::saved,
                   [&saved] { saved = true; });
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(file.string())));
  ASSERT_TRUE(waitUntil([&] { return saved; }) && waitSettled());
  QString recordPath;
  QObject::connect(controller_, &app::ReadersController::signedTo,
                   [&recordPath](const QString& p) { recordPath = p; });
  dock_->reviewerEdit()->setText(QStringLiteral("Reviewer One"));
  ASSERT_TRUE(dock_->signButton()->isEnabled());
  dock_->signButton()->click();
  ASSERT_TRUE(waitUntil([&] { return !recordPath.isEmpty(); }) && waitSettled());
  EXPECT_EQ(std::filesystem::path(recordPath.toStdString()),
            dir_.path() / "adjudicated.adjudication.json");
  const core::AdjudicationRecord record = core::readAdjudicationRecord(recordPath.toStdString());
  EXPECT_EQ(record.reviewer, "Reviewer One");
  EXPECT_EQ(record.structure, "tumour");
  EXPECT_EQ(record.readers, (std::vector<std::string>{"Dr A", "Dr B", "Dr C"}));
  EXPECT_EQ(
      record.readerTools,
      (std::vector<std::string>{
          "", "", "AI: MONAI Label at http://gpu-box:8000, model deepedit; tools: tool.brush 3"}));
  ASSERT_EQ(record.regions.size(), 2u);
  EXPECT_EQ(record.regions[0].source, "Dr A, Dr B");
  EXPECT_EQ(record.regions[1].source, "Dr B");
  EXPECT_EQ(record.regions[1].agreement, (std::vector<double>{0.0, 1.0, 0.0}));
  EXPECT_TRUE(dock_->messageLabel()->text().contains(QStringLiteral("Signed")));
  EXPECT_TRUE(errors_.empty());
}

}  // namespace
}  // namespace delineate::test
