#include "core/model/Document.h"

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
  doc.markSaved();
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

TEST(Document, JournalsEditsOfTheActiveLabelMap) {
  delineate::test::TempDir dir;
  Document doc;
  doc.setImage(makeImage());
  doc.addLabelMap("labels", {{.label = 1, .name = "A"}});
  doc.enableRecovery(dir.path());
  ASSERT_NE(doc.journal(), nullptr);
  paint(doc, 3, 1);
  paint(doc, 8, 1);
  doc.undoStack().undo();
  EXPECT_GT(doc.journal()->journalBytes(), 0u);
  RecoverableSession s{doc.journal()->folder(), "/images/ct", "labels", "", 1};
  const LabelMap recovered = EditJournal::recover(s);
  EXPECT_EQ(recovered.at(3, 5, 5), 1);
  EXPECT_EQ(recovered.at(8, 5, 5), 0);
}
