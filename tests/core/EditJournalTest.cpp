#include "core/edit/EditJournal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "TempDir.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/UndoStack.h"
#include "core/edit/VoxelEditCommand.h"

using namespace delineate::core;

namespace {

std::shared_ptr<LabelMap> makeMap() {
  ImageGeometry g;
  g.size = {32, 24, 16};
  g.spacing = {0.8, 0.8, 2.0};
  g.origin = {-10, 4, 30};
  return std::make_shared<LabelMap>(
      "Annotator labels", g,
      std::vector<Segment>{{.label = 1, .name = "Liver"}, {.label = 2, .name = "Lesion"}});
}

VoxelDelta paintBox(LabelMap& map, std::size_t i0, std::size_t i1, std::uint16_t value) {
  LabelMapEdit edit(map);
  for (std::size_t k = 2; k < 10; ++k) {
    for (std::size_t j = 3; j < 12; ++j) {
      for (std::size_t i = i0; i < i1; ++i) {
        edit.write(i, j, k, value);
      }
    }
  }
  return edit.commit();
}

// The editing session a user would have: edits, an undo, a rename, then the process dies.
std::vector<std::uint16_t> editThenDie(const std::filesystem::path& root, bool sigkill) {
  auto map = makeMap();
  EditJournal journal(root, *map, "/data/ct/series1");
  const VoxelDelta a = paintBox(*map, 2, 12, 1);
  journal.recordDelta(a, true);
  const VoxelDelta b = paintBox(*map, 8, 20, 2);
  journal.recordDelta(b, true);
  b.apply(*map, false);  // undo
  journal.recordDelta(b, false);
  const VoxelDelta c = paintBox(*map, 20, 30, 2);
  journal.recordDelta(c, true);
  map->segment(2)->name = "Metastasis";
  journal.recordSegments(map->segments());
  if (sigkill) {
    ::kill(::getpid(), SIGKILL);
  }
  return {map->data(), map->data() + map->voxelCount()};
}

}  // namespace

TEST(EditJournal, RecoversEverythingAfterSigkill) {
  delineate::test::TempDir dir;
  const auto expected = editThenDie(dir / "expected-run", false);  // same edits, in-process
  const pid_t pid = ::fork();
  if (pid == 0) {
    editThenDie(dir.path() / "root", true);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  const auto sessions = EditJournal::findRecoverable(dir.path() / "root");
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].sourcePath, "/data/ct/series1");
  EXPECT_EQ(sessions[0].labelName, "Annotator labels");
  const LabelMap recovered = EditJournal::recover(sessions[0]);
  const std::vector<std::uint16_t> got(recovered.data(), recovered.data() + recovered.voxelCount());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(recovered.segment(2)->name, "Metastasis");
  EXPECT_TRUE(recovered.geometry().sameGrid(makeMap()->geometry()));
}

TEST(EditJournal, ATornLastRecordIsIgnoredAndLiveSessionsAreNotOffered) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  auto journal = std::make_unique<EditJournal>(dir.path(), *map, "src");
  EXPECT_TRUE(EditJournal::findRecoverable(dir.path()).empty()) << "our own live session";
  const VoxelDelta a = paintBox(*map, 2, 12, 1);
  journal->recordDelta(a, true);
  const auto afterA = std::vector<std::uint16_t>(map->data(), map->data() + map->voxelCount());
  const VoxelDelta b = paintBox(*map, 12, 20, 2);
  journal->recordDelta(b, true);
  const auto folder = journal->folder();
  journal.reset();
  // Cut the file in the middle of the last record, and pretend the owner died.
  const auto path = folder / "journal.bin";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 7);
  std::ofstream(folder / "manifest.json")
      << R"({"source": "src", "labelName": "x", "pid": 999999999})";
  const auto sessions = EditJournal::findRecoverable(dir.path());
  ASSERT_EQ(sessions.size(), 1u);
  const LabelMap recovered = EditJournal::recover(sessions[0]);
  EXPECT_EQ(std::vector<std::uint16_t>(recovered.data(), recovered.data() + recovered.voxelCount()),
            afterA);
}

TEST(EditJournal, CompactAndDiscard) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  EditJournal journal(dir.path(), *map, "src");
  journal.recordDelta(paintBox(*map, 0, 30, 1), true);
  EXPECT_GT(journal.journalBytes(), 0u);
  journal.compact(*map);
  EXPECT_EQ(journal.journalBytes(), 0u);
  journal.discard();
  EXPECT_FALSE(std::filesystem::exists(journal.folder()));
}
