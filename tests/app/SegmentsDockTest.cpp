// The segments dock, segment operations as jobs, and label map files in the real window.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QSlider>
#include <QTableWidget>
#include <filesystem>
#include <fstream>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/editing/SegmentMeasurer.h"
#include "app/gui/editing/SegmentOperationsController.h"
#include "app/gui/editing/SegmentsDock.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/LabelMapFileIO.h"
#include "viewers/SliceView.h"

using namespace delineate;
using delineate::test::colourDistance;
using delineate::test::waitUntil;

namespace {

class SegmentsDockTest : public test::EditingWindowTest {
 protected:
  app::SegmentsDock* dock() const { return editing()->segmentsDock(); }
  QTableWidget* table() const { return dock()->table(); }

  // A filled disc of segment 1 in the axial slice through the centre.
  void paintDisc(double radiusMm = 10) {
    window_->action("tool.brush")->trigger();
    editing()->tools()->setBrushRadiusMm(radiusMm);
    const double z = centre()[2];
    stroke(view(0), {{-20, 0, z}, {-19, 0, z}});
  }
};

}  // namespace

TEST_F(SegmentsDockTest, ReflectsAddRenameAndLockAndALockedSegmentIsNotPainted) {
  EXPECT_EQ(table()->rowCount(), 0);
  // The first Add also creates the label map, with its "Segment 1".
  const std::uint16_t first = 1;
  const std::uint16_t second = dock()->addSegment();
  ASSERT_EQ(second, 2);
  ASSERT_EQ(table()->rowCount(), 2);
  EXPECT_EQ(dock()->labelAt(table()->currentRow()), second) << "a new segment becomes active";

  // Rename by editing the name cell; undo brings the old name back.
  table()->item(dock()->rowOf(second), app::SegmentsDock::Name)->setText("Liver");
  EXPECT_EQ(session()->activeMap()->segment(second)->name, "Liver");
  EXPECT_EQ(table()->item(dock()->rowOf(second), app::SegmentsDock::Name)->text(), "Liver");
  EXPECT_EQ(window_->action("edit.undo")->text(), QStringLiteral("&Undo Rename segment"));
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(table()->item(dock()->rowOf(second), app::SegmentsDock::Name)->text(), "Segment 2");
  window_->action("edit.redo")->trigger();
  EXPECT_EQ(table()->item(dock()->rowOf(second), app::SegmentsDock::Name)->text(), "Liver");

  // Lock it in the table: painting it is refused, nothing changes.
  table()->item(dock()->rowOf(second), app::SegmentsDock::Locked)->setCheckState(Qt::Checked);
  EXPECT_TRUE(session()->activeMap()->segment(second)->locked);
  paintDisc();
  EXPECT_EQ(countLabel(), 0u);
  // Unlocked, the same stroke paints.
  table()->item(dock()->rowOf(second), app::SegmentsDock::Locked)->setCheckState(Qt::Unchecked);
  paintDisc();
  EXPECT_GT(countLabel(second), 100u);
  // A locked segment is also protected from the others' brush.
  table()->item(dock()->rowOf(second), app::SegmentsDock::Locked)->setCheckState(Qt::Checked);
  table()->selectRow(dock()->rowOf(first));
  EXPECT_EQ(session()->activeLabel(), first);
  const std::size_t liver = countLabel(second);
  paintDisc(14);
  EXPECT_EQ(countLabel(second), liver);
  EXPECT_GT(countLabel(first), 0u);

  // Hiding it in the table hides it in the views.
  const double z = centre()[2];
  const QColor shown = colourAt(view(0), {-20, 0, z});
  table()->item(dock()->rowOf(second), app::SegmentsDock::Visible)->setCheckState(Qt::Unchecked);
  EXPECT_FALSE(session()->activeMap()->segment(second)->visible);
  EXPECT_GT(colourDistance(colourAt(view(0), {-20, 0, z}), shown), 20);
}

TEST_F(SegmentsDockTest, MeasuresAfterEditsAndCopiesTheTable) {
  paintDisc();
  ASSERT_TRUE(waitSettled());
  const int row = dock()->rowOf(1);
  ASSERT_GE(row, 0);
  const std::size_t voxels = countLabel(1);
  EXPECT_EQ(table()->item(row, app::SegmentsDock::Voxels)->text(), QString::number(voxels));
  EXPECT_EQ(table()->item(row, app::SegmentsDock::Mean)->text(), QStringLiteral("40.0 ± 0.0"));
  EXPECT_GT(table()->item(row, app::SegmentsDock::Diameter)->text().toDouble(), 18);
  dock()->copyTable();
  const QString tsv = QApplication::clipboard()->text();
  EXPECT_TRUE(tsv.contains(QString::number(voxels))) << tsv.toStdString();
  EXPECT_TRUE(tsv.contains("Segment 1")) << tsv.toStdString();
}

TEST_F(SegmentsDockTest, DeleteAndMergeAreOneUndoStepEach) {
  paintDisc();
  const std::uint16_t second = dock()->addSegment();
  const double z = centre()[2];
  stroke(view(0), {{20, 0, z}, {21, 0, z}});
  const std::size_t a = countLabel(1), b = countLabel(second);
  ASSERT_GT(a, 0u);
  ASSERT_GT(b, 0u);
  const std::size_t steps = session()->document().undoStack().count();

  ASSERT_TRUE(dock()->mergeSegments(1, second));
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(countLabel(1), a + b);
  EXPECT_EQ(session()->activeMap()->segment(second), nullptr);
  EXPECT_EQ(table()->rowCount(), 1);
  EXPECT_EQ(session()->document().undoStack().count(), steps + 1);
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(1), a);
  EXPECT_EQ(countLabel(second), b);
  EXPECT_EQ(table()->rowCount(), 2);

  ASSERT_TRUE(dock()->deleteSegment(1));
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(countLabel(1), 0u);
  EXPECT_EQ(session()->activeMap()->segment(1), nullptr);
  EXPECT_EQ(countLabel(second), b);
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(countLabel(1), a);
  EXPECT_NE(session()->activeMap()->segment(1), nullptr);
}

TEST_F(SegmentsDockTest, PaintOverPolicyOnlyEmpty) {
  paintDisc(10);
  const std::uint16_t second = dock()->addSegment();
  dock()->paintOverCombo()->setCurrentIndex(1);  // only empty voxels
  EXPECT_EQ(session()->policy().mode, core::OverwriteMode::EmptyOnly);
  const std::size_t first = countLabel(1);
  paintDisc(14);
  EXPECT_EQ(countLabel(1), first) << "segment 1 was painted over";
  EXPECT_GT(countLabel(second), 0u);
}

TEST_F(SegmentsDockTest, OperationJobCanBeCancelledAndLeavesTheMapUnchanged) {
  // The whole body in 3D (Shift + region grow): a large segment to smooth.
  ASSERT_NE(session()->ensureLabelMap(), nullptr);
  window_->action("tool.regionGrow")->trigger();
  click(view(0), {-20, 20, centre()[2]}, Qt::ShiftModifier);
  ASSERT_TRUE(waitSettled());
  ASSERT_GT(countLabel(1), 100000u);
  const std::vector<std::uint16_t> before = labelVoxels();
  const std::size_t steps = session()->document().undoStack().count();

  app::SegmentOpParams p;
  p.radiusMm = 4;
  ASSERT_TRUE(editing()->operations()->run(app::SegmentOp::SmoothMedian, p));
  EXPECT_TRUE(session()->busy());
  // Edits wait while the job holds the map.
  window_->action("tool.brush")->trigger();
  stroke(view(0), {{50, 0, centre()[2]}, {51, 0, centre()[2]}});
  EXPECT_EQ(labelVoxels(), before);
  // Undo cancels the job instead of undoing the region grow.
  window_->action("edit.undo")->trigger();
  EXPECT_FALSE(session()->busy());
  ASSERT_TRUE(waitUntil([&] { return !editing()->jobs()->runner()->busy(); }, 60000));
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(labelVoxels(), before);
  EXPECT_EQ(session()->document().undoStack().count(), steps);

  // The same operation, cancelled from the status bar's Cancel button.
  ASSERT_TRUE(editing()->operations()->run(app::SegmentOp::SmoothMedian, p));
  editing()->jobs()->runner()->cancel();
  ASSERT_TRUE(waitSettled());
  EXPECT_FALSE(session()->busy());
  EXPECT_EQ(labelVoxels(), before);
  EXPECT_EQ(session()->document().undoStack().count(), steps);

  // Run to the end: one undo entry.
  p.marginMm = 3;
  ASSERT_TRUE(editing()->operations()->run(app::SegmentOp::Shrink, p));
  ASSERT_TRUE(waitSettled());
  EXPECT_LT(countLabel(1), before.size());
  EXPECT_NE(labelVoxels(), before);
  EXPECT_EQ(session()->document().undoStack().count(), steps + 1);
  window_->action("edit.undo")->trigger();
  EXPECT_EQ(labelVoxels(), before);
}

TEST_F(SegmentsDockTest, SaveToAReadOnlyFolderShowsTheErrorAndKeepsTheData) {
  paintDisc();
  const std::vector<std::uint16_t> painted = labelVoxels();
  ASSERT_TRUE(window_->isWindowModified());
  // A folder nobody may write to. Root ignores permissions: then a path under a regular file.
  const auto locked = dir_ / "locked";
  std::filesystem::create_directories(locked);
  std::filesystem::permissions(
      locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const auto target =
      ::geteuid() == 0 ? dir_ / "a-file" / "labels.nii.gz" : locked / "labels.nii.gz";
  if (::geteuid() == 0) {
    std::ofstream(dir_ / "a-file") << "not a folder";
  }
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(target.string())));
  ASSERT_TRUE(waitSettled());
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_TRUE(errors_[0].contains(QString::fromStdString(target.string())))
      << errors_[0].toStdString();
  EXPECT_TRUE(window_->isWindowModified()) << "the work is not saved";
  EXPECT_TRUE(session()->hasUnsavedChanges());
  EXPECT_EQ(labelVoxels(), painted);
  EXPECT_FALSE(std::filesystem::exists(target));

  // Saving elsewhere works and clears the modified mark; the file reads back the same.
  const auto good = dir_ / "labels.nii.gz";
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(good.string())));
  ASSERT_TRUE(waitSettled());
  EXPECT_FALSE(window_->isWindowModified());
  EXPECT_FALSE(session()->hasUnsavedChanges());
  const core::LabelMap back = core::readLabelMapFiles(good);
  EXPECT_TRUE(std::equal(back.data(), back.data() + back.voxelCount(), painted.begin()));
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
}

TEST_F(SegmentsDockTest, OpeningALabelMapOnAnotherGridNamesTheDifferenceAndResamples) {
  // A label map on a grid with half the slices (6 mm apart).
  core::ImageGeometry g = session()->image()->geometry();
  g.size[2] = 20;
  g.spacing[2] = 6;
  core::LabelMap other("coarse", g, {core::Segment{}});
  for (std::size_t i = 0; i < other.voxelCount(); ++i) {
    other.mutableData()[i] = (i % g.size[0]) < 64 ? 1 : 0;
  }
  const auto path = dir_ / "coarse.nii.gz";
  core::writeLabelMapFiles(other, path);

  editing()->files()->openLabelMap(QString::fromStdString(path.string()),
                                   app::LabelFileController::OnGridMismatch::Refuse);
  ASSERT_TRUE(waitSettled());
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_TRUE(errors_[0].contains("size 128x112x20 vs 128x112x40")) << errors_[0].toStdString();
  EXPECT_EQ(session()->activeMap(), nullptr);

  editing()->files()->openLabelMap(QString::fromStdString(path.string()),
                                   app::LabelFileController::OnGridMismatch::Resample);
  ASSERT_TRUE(waitSettled());
  ASSERT_NE(session()->activeMap(), nullptr);
  EXPECT_TRUE(session()->activeMap()->geometry().sameGrid(session()->image()->geometry()));
  EXPECT_GT(countLabel(1), 100000u);
  EXPECT_EQ(table()->rowCount(), 1);
}

namespace {

class DicomSegTest : public SegmentsDockTest {
 protected:
  DicomSegTest() { loadAsDicom_ = true; }
};

}  // namespace

TEST_F(DicomSegTest, ExportsAndImportsDicomSegWhenTheImageCameFromDicom) {
  EXPECT_FALSE(window_->action("file.exportDicomSeg")->isEnabled()) << "no label map yet";
  paintDisc();
  EXPECT_TRUE(window_->action("file.exportDicomSeg")->isEnabled());
  session()->renameSegment(1, "Lesion");
  const std::vector<std::uint16_t> painted = labelVoxels();
  const auto seg = dir_ / "seg.dcm";
  editing()->files()->exportDicomSeg(QString::fromStdString(seg.string()));
  ASSERT_TRUE(waitSettled());
  ASSERT_TRUE(errors_.empty()) << errors_.front().toStdString();
  ASSERT_TRUE(std::filesystem::exists(seg));

  editing()->files()->importDicomSeg(QString::fromStdString(seg.string()));
  ASSERT_TRUE(waitSettled());
  ASSERT_TRUE(errors_.empty()) << errors_.front().toStdString();
  ASSERT_EQ(session()->document().labelMaps().size(), 2u);
  EXPECT_EQ(dock()->labelMapCombo()->count(), 2);
  EXPECT_EQ(labelVoxels(), painted) << "the imported SEG is the exported label map";
  EXPECT_EQ(session()->activeMap()->segments().at(0).name, "Lesion");
}

TEST_F(SegmentsDockTest, DicomSegExportNeedsADicomImage) {
  paintDisc();
  EXPECT_FALSE(window_->action("file.exportDicomSeg")->isEnabled());
}
