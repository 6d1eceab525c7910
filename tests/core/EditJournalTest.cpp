#include "core/edit/EditJournal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

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
  EditJournal journal(root, *map, "/data/ct/series1", true);
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

void pretendOwnerDied(const std::filesystem::path& folder) {
  std::ifstream in(folder / "manifest.json");
  nlohmann::json m = nlohmann::json::parse(in);
  in.close();
  m["pid"] = 999999999;
  std::ofstream(folder / "manifest.json") << m.dump();
}

std::vector<std::uint16_t> voxelsOf(const LabelMap& map) {
  return {map.data(), map.data() + map.voxelCount()};
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
  auto journal = std::make_unique<EditJournal>(dir.path(), *map, "src", true);
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
  pretendOwnerDied(folder);
  const auto sessions = EditJournal::findRecoverable(dir.path());
  ASSERT_EQ(sessions.size(), 1u);
  const LabelMap recovered = EditJournal::recover(sessions[0]);
  EXPECT_EQ(std::vector<std::uint16_t>(recovered.data(), recovered.data() + recovered.voxelCount()),
            afterA);
}

TEST(EditJournal, CompactAndDiscard) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  EditJournal journal(dir.path(), *map, "src", true);
  journal.recordDelta(paintBox(*map, 0, 30, 1), true);
  EXPECT_GT(journal.journalBytes(), 0u);
  journal.compact(*map);
  EXPECT_EQ(journal.journalBytes(), 0u);
  journal.discard();
  EXPECT_FALSE(std::filesystem::exists(journal.folder()));
}

TEST(EditJournal, ALoadedMapIsRecoverableOnlyOnceItsSnapshotIsWritten) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  paintBox(*map, 4, 9, 2);  // what the file held
  auto journal = std::make_unique<EditJournal>(dir.path(), *map, "src", false);
  EXPECT_TRUE(journal->needsSnapshot());
  journal->recordDelta(paintBox(*map, 10, 14, 1), true);
  const auto folder = journal->folder();
  journal.reset();
  pretendOwnerDied(folder);
  EXPECT_TRUE(EditJournal::findRecoverable(dir.path()).empty())
      << "without a base there is nothing to rebuild";
  EXPECT_FALSE(std::filesystem::exists(folder)) << "and the folder is cleaned up";
}

// The snapshot is taken from a copy made at some point while edits go on; records before that
// point are dropped, records after it stay, and the recovered map is the final one.
TEST(EditJournal, ASnapshotTakenMidSessionCutsOnlyWhatItHolds) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  paintBox(*map, 4, 9, 2);
  auto journal = std::make_unique<EditJournal>(dir.path(), *map, "src", false);
  journal->recordDelta(paintBox(*map, 10, 14, 1), true);
  const std::size_t offset = journal->journalBytes();
  const LabelMap copy(
      map->name(), map->geometry(),
      [&] {
        auto v = std::make_shared<VoxelBuffer>(ScalarType::UInt16, map->voxelCount());
        std::memcpy(v->data(), map->data(), v->bytes());
        return v;
      }(),
      map->segments());
  // Edits made while the snapshot job runs.
  const VoxelDelta late = paintBox(*map, 12, 20, 2);
  journal->recordDelta(late, true);
  late.apply(*map, false);
  journal->recordDelta(late, false);
  journal->recordDelta(paintBox(*map, 22, 25, 1), true);
  const std::size_t before = journal->journalBytes();
  EditJournal::writeSnapshot(copy, journal->folder());
  journal->snapshotWritten(offset);
  EXPECT_FALSE(journal->needsSnapshot());
  EXPECT_EQ(journal->journalBytes(), before - offset);
  const auto folder = journal->folder();
  journal.reset();
  pretendOwnerDied(folder);
  const auto sessions = EditJournal::findRecoverable(dir.path());
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].records, 3u);
  EXPECT_EQ(voxelsOf(EditJournal::recover(sessions[0])), voxelsOf(*map));
}

TEST(EditJournal, AnAdoptedJournalContinuesTheRecoveredSession) {
  delineate::test::TempDir dir;
  auto map = makeMap();
  auto journal = std::make_unique<EditJournal>(dir.path(), *map, "src", true);
  journal->recordDelta(paintBox(*map, 2, 6, 1), true);
  const auto folder = journal->folder();
  journal.reset();
  pretendOwnerDied(folder);
  auto sessions = EditJournal::findRecoverable(dir.path());
  ASSERT_EQ(sessions.size(), 1u);
  auto adopted = EditJournal::adopt(sessions[0]);
  EXPECT_TRUE(EditJournal::findRecoverable(dir.path()).empty()) << "owned by this process now";
  adopted->recordDelta(paintBox(*map, 8, 12, 2), true);
  adopted.reset();
  pretendOwnerDied(folder);
  sessions = EditJournal::findRecoverable(dir.path());
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(voxelsOf(EditJournal::recover(sessions[0])), voxelsOf(*map));
}
