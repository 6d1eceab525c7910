#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>

#include "core/edit/LabelMapEdit.h"
#include "core/edit/UndoStack.h"
#include "core/edit/VoxelEditCommand.h"
#include "core/model/LabelMap.h"

using namespace delineate::core;

namespace {

std::shared_ptr<LabelMap> makeMap(std::size_t n, std::vector<Segment> segments = {}) {
  ImageGeometry g;
  g.size = {n, n, n};
  if (segments.empty()) {
    segments = {{.label = 1, .name = "A"}, {.label = 2, .name = "B"}, {.label = 3, .name = "C"}};
  }
  return std::make_shared<LabelMap>("labels", g, segments);
}

std::vector<std::uint16_t> snapshot(const LabelMap& m) {
  return {m.data(), m.data() + m.voxelCount()};
}

// Paints a ball of `radius` voxels, as one undoable edit.
std::unique_ptr<VoxelEditCommand> paintBall(const std::shared_ptr<LabelMap>& map, long ci, long cj,
                                            long ck, long radius, std::uint16_t value,
                                            PaintPolicy policy = {}) {
  LabelMapEdit edit(*map, policy);
  const auto& s = map->geometry().size;
  for (long k = ck - radius; k <= ck + radius; ++k) {
    for (long j = cj - radius; j <= cj + radius; ++j) {
      for (long i = ci - radius; i <= ci + radius; ++i) {
        if (i < 0 || j < 0 || k < 0 || i >= long(s[0]) || j >= long(s[1]) || k >= long(s[2])) {
          continue;
        }
        const long d2 = (i - ci) * (i - ci) + (j - cj) * (j - cj) + (k - ck) * (k - ck);
        if (d2 <= radius * radius) {
          edit.write(std::size_t(i), std::size_t(j), std::size_t(k), value);
        }
      }
    }
  }
  return std::make_unique<VoxelEditCommand>(map, edit.commit(), "Paint");
}

}  // namespace

TEST(Undo, RandomEditsUndoToTheOriginalAndRedoToTheFinal) {
  auto map = makeMap(48);
  UndoStack stack(1000, 64u << 20);
  std::mt19937 rng(42);
  std::uniform_int_distribution<long> pos(0, 47), rad(1, 9), lab(0, 3);
  const auto original = snapshot(*map);
  for (int n = 0; n < 60; ++n) {
    stack.push(paintBall(map, pos(rng), pos(rng), pos(rng), rad(rng), std::uint16_t(lab(rng))));
  }
  const auto final = snapshot(*map);
  EXPECT_NE(final, original);
  EXPECT_LE(stack.bytes(), 64u << 20);
  while (stack.canUndo()) {
    stack.undo();
  }
  EXPECT_EQ(snapshot(*map), original);
  while (stack.canRedo()) {
    stack.redo();
  }
  EXPECT_EQ(snapshot(*map), final);
}

TEST(Undo, MemoryFollowsTheEditNotTheVolume) {
  // A 20-voxel-radius 3D stroke: the delta must stay well under 64 KB, on any volume size.
  auto small = makeMap(64);
  auto large = makeMap(160);
  const auto a = paintBall(small, 32, 32, 32, 20, 1);
  const auto b = paintBall(large, 80, 80, 80, 20, 1);
  EXPECT_EQ(a->delta().changedVoxels(), b->delta().changedVoxels());
  EXPECT_GT(a->delta().changedVoxels(), 30000u);
  EXPECT_LT(b->byteSize(), 64u * 1024u);
  EXPECT_EQ(a->byteSize(), b->byteSize());
}

TEST(Undo, StackIsCappedByCountAndBytesDroppingTheOldest) {
  auto map = makeMap(40);
  UndoStack stack(5, 1u << 30);
  for (int n = 0; n < 8; ++n) {
    stack.push(paintBall(map, 5 + 3 * n, 20, 20, 2, 1));
  }
  EXPECT_EQ(stack.count(), 5u);
  const std::size_t perEntry = stack.bytes() / stack.count();
  stack.setLimits(100, perEntry * 2 + perEntry / 2);
  EXPECT_EQ(stack.count(), 2u);
  EXPECT_LE(stack.bytes(), perEntry * 3);
  // The newest entries survive: undoing both removes the last two balls only.
  stack.undo();
  stack.undo();
  EXPECT_FALSE(stack.canUndo());
  EXPECT_EQ(map->at(5 + 3 * 7, 20, 20), 0);
  EXPECT_EQ(map->at(5 + 3 * 6, 20, 20), 0);
  EXPECT_EQ(map->at(5 + 3 * 5, 20, 20), 1);
}

TEST(Undo, CleanMarkerTracksUnsavedChanges) {
  auto map = makeMap(16);
  UndoStack stack;
  EXPECT_TRUE(stack.isClean());
  stack.push(paintBall(map, 8, 8, 8, 2, 1));
  EXPECT_FALSE(stack.isClean());
  stack.setClean();
  stack.push(paintBall(map, 4, 4, 4, 2, 2));
  EXPECT_FALSE(stack.isClean());
  stack.undo();
  EXPECT_TRUE(stack.isClean());
  stack.undo();
  EXPECT_FALSE(stack.isClean());
  stack.redo();
  stack.push(paintBall(map, 12, 12, 12, 1, 3));  // a new branch: the saved state is unreachable
  stack.undo();
  EXPECT_TRUE(stack.isClean());
}

TEST(PaintPolicy, LockedSegmentsAreNeverChanged) {
  auto map = makeMap(24, {{.label = 1, .name = "Locked"}, {.label = 2, .name = "Free"}});
  map->segment(1)->locked = true;
  paintBall(map, 8, 12, 12, 5, 1 /* not allowed: painting into a locked segment */);
  EXPECT_EQ(map->at(8, 12, 12), 0);
  map->segment(1)->locked = false;
  paintBall(map, 8, 12, 12, 5, 1);
  map->segment(1)->locked = true;
  const auto before = snapshot(*map);
  paintBall(map, 10, 12, 12, 6, 2);  // overwrite-all still skips the locked voxels
  paintBall(map, 10, 12, 12, 6, 0);  // and so does the eraser
  for (std::size_t n = 0; n < before.size(); ++n) {
    if (before[n] == 1) {
      ASSERT_EQ(map->data()[n], 1) << "voxel " << n;
    }
  }
}

TEST(PaintPolicy, EmptyOnlyAndInsideSegment) {
  auto map = makeMap(24);
  paintBall(map, 12, 12, 12, 4, 1);
  paintBall(map, 12, 12, 12, 6, 2, {OverwriteMode::EmptyOnly, 0});
  EXPECT_EQ(map->at(12, 12, 12), 1);
  EXPECT_EQ(map->at(12, 12, 17), 2);
  paintBall(map, 12, 12, 12, 8, 3, {OverwriteMode::InsideSegment, 1});
  EXPECT_EQ(map->at(12, 12, 12), 3);
  EXPECT_EQ(map->at(12, 12, 17), 2);
  EXPECT_EQ(map->at(12, 12, 20), 0);
}

TEST(LabelMapEdit, RollbackRestoresEverythingAndDestructorRollsBack) {
  auto map = makeMap(32);
  paintBall(map, 10, 10, 10, 3, 2);
  const auto before = snapshot(*map);
  {
    LabelMapEdit edit(*map);
    for (std::size_t i = 0; i < 32; ++i) {
      edit.write(i, i, i, 1);
    }
    EXPECT_GT(edit.stagingBytes(), 0u);
    // destroyed without commit: a failed or cancelled operation leaves no trace
  }
  EXPECT_EQ(snapshot(*map), before);
  LabelMapEdit edit(*map);
  edit.write(0, 0, 0, 3);
  edit.rollback();
  EXPECT_EQ(snapshot(*map), before);
}

TEST(LabelMapEdit, AStagedEditLeavesTheMapAndGivesTheSameDeltaAsWritingInPlace) {
  // Random strokes under every policy, with a locked segment: the staged edit (a worker's) must
  // decide exactly as the in-place one, see its own earlier writes, and never touch the map.
  std::mt19937 random(7);
  for (const PaintPolicy policy : {PaintPolicy{}, PaintPolicy{OverwriteMode::EmptyOnly, 0},
                                   PaintPolicy{OverwriteMode::InsideSegment, 1}}) {
    auto map = makeMap(40, {{.label = 1, .name = "A"},
                            {.label = 2, .name = "B", .locked = true},
                            {.label = 3, .name = "C"}});
    paintBall(map, 15, 15, 15, 8, 1);
    paintBall(map, 22, 20, 18, 5, 2);
    const auto before = snapshot(*map);
    std::vector<std::array<std::size_t, 4>> writes;
    for (int w = 0; w < 20000; ++w) {
      writes.push_back({random() % 40, random() % 40, random() % 40, random() % 4});
    }
    LabelMapEdit staged = LabelMapEdit::staged(*map, policy);
    for (const auto& [i, j, k, v] : writes) {
      staged.write(i, j, k, std::uint16_t(v));
      ASSERT_EQ(map->openEdits(), 0) << "a staged edit is no open edit of the map";
    }
    const std::uint16_t seen = staged.value(writes.back()[0], writes.back()[1], writes.back()[2]);
    const VoxelDelta plan = staged.commit();
    EXPECT_EQ(snapshot(*map), before) << "the map is untouched";

    VoxelDelta direct;
    {
      LabelMapEdit edit(*map, policy);
      for (const auto& [i, j, k, v] : writes) {
        edit.write(i, j, k, std::uint16_t(v));
      }
      EXPECT_EQ(edit.value(writes.back()[0], writes.back()[1], writes.back()[2]), seen);
      direct = edit.commit();
    }
    const auto written = snapshot(*map);
    EXPECT_EQ(plan.changedVoxels(), direct.changedVoxels());
    EXPECT_GT(plan.changedVoxels(), 0u);
    direct.apply(*map, false);
    ASSERT_EQ(snapshot(*map), before);
    plan.apply(*map, true);
    EXPECT_EQ(snapshot(*map), written) << "applying the plan gives what writing in place gave";
    plan.apply(*map, false);
    EXPECT_EQ(snapshot(*map), before) << "and it undoes";
  }
}
