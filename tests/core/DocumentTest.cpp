#include "core/document/Document.h"

#include <gtest/gtest.h>

#include "TempDir.h"
#include "core/Error.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

using namespace delineate::core;

namespace {

VolumePtr makeImage() {
  ImageGeometry g;
  g.size = {20, 20, 10};
  VolumeInfo info;
  info.sourcePath = "/images/ct";
  return std::make_shared<const Volume>(
      g, std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount()), info);
}

void paint(Document& doc, std::size_t i, std::uint16_t v) {
  auto map = doc.activeLabelMap();
  LabelMapEdit edit(*map);
  edit.write(i, 5, 5, v);
  edit.write(i + 1, 6, 5, v);
  doc.undoStack().push(std::make_unique<VoxelEditCommand>(map, edit.commit(), "Paint"));
}

}  // namespace

TEST(Document, EditsAreCoalescedIntoOneNotificationPerFlush) {
  Document doc;
  doc.setImage(makeImage());
  doc.addLabelMap("labels", {{.label = 1, .name = "A"}});
  std::vector<DocumentChange> seen;
  doc.addObserver([&](const DocumentChange& c) { seen.push_back(c); });
  doc.flushChanges();
  seen.clear();
  paint(doc, 2, 1);
  paint(doc, 10, 1);
  paint(doc, 15, 1);
  EXPECT_TRUE(seen.empty()) << "nothing is delivered before the frame flush";
  doc.flushChanges();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, ChangeKind::Voxels);
  EXPECT_EQ(seen[0].box.lo[0], 2u);
  EXPECT_EQ(seen[0].box.hi[0], 17u);
  EXPECT_TRUE(doc.hasUnsavedChanges());
  doc.markSaved(*doc.activeLabelMap());
  EXPECT_FALSE(doc.hasUnsavedChanges());
  seen.clear();
  doc.undoStack().undo();
  doc.flushChanges();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].box.lo[0], 15u);
  EXPECT_TRUE(doc.hasUnsavedChanges());
}

TEST(Document, RefusesALabelMapOnAnotherGrid) {
  Document doc;
  doc.setImage(makeImage());
  ImageGeometry other = doc.image()->geometry();
  other.size[2] = 11;
  try {
    doc.addLabelMap(std::make_shared<LabelMap>("wrong", other));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("size 20x20x10 vs 20x20x11"), std::string::npos)
        << e.what();
  }
}

TEST(Document, EveryLabelMapKeepsItsOwnJournalAcrossSwitches) {
  delineate::test::TempDir dir;
  Document doc;
  doc.setImage(makeImage());
  auto first = doc.addLabelMap("first", {{.label = 1, .name = "A"}});
  doc.enableRecovery(dir.path());
  auto second = doc.addLabelMap("second", {{.label = 1, .name = "B"}});
  ASSERT_NE(doc.journal(*first), nullptr);
  ASSERT_NE(doc.journal(*second), nullptr);
  EXPECT_FALSE(doc.journal(*second)->needsSnapshot()) << "a new map is empty: no snapshot";
  doc.setActiveLabelMap(0);
  paint(doc, 3, 1);
  doc.setActiveLabelMap(1);
  paint(doc, 8, 1);
  doc.setActiveLabelMap(0);
  paint(doc, 12, 1);
  doc.undoStack().undo();
  // `first` was there before recovery was on: its journal waits for a snapshot.
  doc.journal(*first)->compact(*first);
  paint(doc, 14, 1);
  for (const auto& map : {first, second}) {
    RecoverableSession s{doc.journal(*map)->folder(), "/images/ct", map->name(), "", 1};
    const LabelMap recovered = EditJournal::recover(s);
    EXPECT_EQ(
        std::vector<std::uint16_t>(recovered.data(), recovered.data() + recovered.voxelCount()),
        std::vector<std::uint16_t>(map->data(), map->data() + map->voxelCount()))
        << map->name();
  }
  EXPECT_EQ(first->at(3, 5, 5), 1);
  EXPECT_EQ(first->at(12, 5, 5), 0);
  EXPECT_EQ(second->at(8, 5, 5), 1);
}

TEST(Document, SavingOneLabelMapLeavesTheOthersUnsaved) {
  Document doc;
  doc.setImage(makeImage());
  auto first = doc.addLabelMap("first", {{.label = 1, .name = "A"}});
  auto second = doc.addLabelMap("second", {{.label = 1, .name = "B"}});
  EXPECT_FALSE(doc.hasUnsavedChanges());
  doc.setActiveLabelMap(0);
  paint(doc, 3, 1);
  doc.setActiveLabelMap(1);
  paint(doc, 8, 1);
  doc.markSaved(*first);
  EXPECT_FALSE(doc.isModified(*first));
  EXPECT_TRUE(doc.isModified(*second));
  EXPECT_TRUE(doc.hasUnsavedChanges());
  doc.markSaved(*second);
  EXPECT_FALSE(doc.hasUnsavedChanges());
  doc.undoStack().undo();  // the paint of `second`
  EXPECT_FALSE(doc.isModified(*first));
  EXPECT_TRUE(doc.isModified(*second));
  doc.undoStack().redo();
  EXPECT_FALSE(doc.hasUnsavedChanges()) << "back at the saved state";
  doc.undoStack().undo();
  doc.setActiveLabelMap(0);
  paint(doc, 15, 1);  // drops the redo of `second`: its saved state is gone for good
  EXPECT_TRUE(doc.isModified(*second));
  doc.markModified(*first);
  doc.markSaved(*first);
  EXPECT_FALSE(doc.isModified(*first));
}
