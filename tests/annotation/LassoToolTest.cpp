#include "annotation/tools/LassoTool.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;
using core::Vec3;

namespace {

PointerEvent event(PointerAction a, Vec3 world, Vec3 normal = {0, 0, 1}) {
  PointerEvent e;
  e.action = a;
  e.world = world;
  e.sliceNormal = normal;
  return e;
}

// Drags the outline through `points` (press on the first, release on the last).
void draw(LassoTool& tool, const std::vector<Vec3>& points, Vec3 normal = {0, 0, 1}) {
  tool.pointer(event(PointerAction::Press, points.front(), normal));
  for (std::size_t p = 1; p + 1 < points.size(); ++p) {
    tool.pointer(event(PointerAction::Move, points[p], normal));
  }
  tool.pointer(event(PointerAction::Release, points.back(), normal));
}

// The square x, y in [4.5, 12.5] on the plane z = `z` mm: voxels 5..12 (8 x 8).
std::vector<Vec3> square(double z) {
  return {{4.5, 4.5, z}, {12.5, 4.5, z}, {12.5, 12.5, z}, {4.5, 12.5, z}};
}

bool inSquare(long i, long j) {
  return i >= 5 && i <= 12 && j >= 5 && j <= 12;
}

}  // namespace

TEST(LassoTool, FillsTheOutlineOnTheSliceAsOneUndoEntry) {
  OpsFixture f({20, 20, 10}, {1, 1, 2});
  f.paint(2, [](long i, long, long) { return i == 6; });  // overwritten under the All policy
  const auto before = f.snapshot();
  LassoTool lasso(f.ctx);
  EXPECT_EQ(lasso.id(), "tool.lasso");
  lasso.pointer(event(PointerAction::Press, {4.5, 4.5, 8}));
  EXPECT_TRUE(lasso.drawing());
  lasso.pointer(event(PointerAction::Move, {12.5, 4.5, 8}));
  lasso.pointer(event(PointerAction::Move, {12.5, 12.5, 8}));
  EXPECT_EQ(lasso.outline().size(), 3u);
  EXPECT_EQ(f.count(1), 0u);  // nothing is written before the release
  lasso.pointer(event(PointerAction::Release, {4.5, 12.5, 8}));
  EXPECT_FALSE(lasso.drawing());
  EXPECT_TRUE(lasso.outline().empty());
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long k) { return k == 4 && inSquare(i, j); }),
            0u);
  EXPECT_EQ(f.undo.count(), 1u);
  EXPECT_EQ(f.undo.undoText(), "Lasso");
  ASSERT_EQ(f.notified.size(), 1u);
  EXPECT_EQ(f.notified[0], (core::VoxelBox{{5, 5, 4}, {13, 13, 5}}));
  f.undo.undo();
  EXPECT_EQ(f.snapshot(), before);
}

TEST(LassoTool, ScissorsEraseInsideThroughAllSlicesOnlyTheActiveSegment) {
  OpsFixture f({20, 20, 10});
  f.paint(1, [](long i, long j, long) { return i >= 2 && i < 18 && j >= 2 && j < 18; });
  f.paint(2, [](long i, long j, long k) { return i == 8 && j == 8 && k == 3; });
  f.paint(3, [](long i, long j, long k) { return i == 9 && j == 9 && k == 3; });
  const auto before = f.snapshot();
  LassoTool scissors(f.ctx, LassoMode::EraseInside);
  EXPECT_EQ(scissors.id(), "tool.scissors");
  EXPECT_TRUE(scissors.throughAllSlices());
  draw(scissors, square(5));
  for (long k = 0; k < 10; ++k) {
    for (long j = 0; j < 20; ++j) {
      for (long i = 0; i < 20; ++i) {
        std::uint16_t expected = before[f.map().index(i, j, k)];
        if (expected == 1 && inSquare(i, j)) {
          expected = 0;
        }
        ASSERT_EQ(f.map().at(i, j, k), expected) << i << "," << j << "," << k;
      }
    }
  }
  EXPECT_EQ(f.undo.count(), 1u);
  EXPECT_EQ(f.undo.undoText(), "Scissors");
  f.undo.undo();
  EXPECT_EQ(f.snapshot(), before);
}

TEST(LassoTool, ScissorsEraseOutside) {
  OpsFixture f({20, 20, 10});
  f.paint(1, [](long i, long j, long) { return i >= 2 && i < 18 && j >= 2 && j < 18; });
  f.paint(2, [](long i, long, long) { return i == 0; });
  LassoTool scissors(f.ctx, LassoMode::EraseOutside);
  draw(scissors, square(5));
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long) { return inSquare(i, j); }),
            0u);
  EXPECT_EQ(f.count(2), 200u);
  EXPECT_EQ(f.undo.count(), 1u);
}

TEST(LassoTool, LockedSegmentsSurvive) {
  OpsFixture f({20, 20, 10});
  f.paint(3, [](long i, long j, long k) { return k == 5 && i == 8 && j >= 5; });
  LassoTool lasso(f.ctx);
  draw(lasso, square(5));
  EXPECT_EQ(f.count(3), 15u);
  EXPECT_EQ(f.count(1), 64u - 8);
  // Scissors on a locked active segment change nothing and leave no undo entry.
  f.ctx.activeLabel = 3;
  LassoTool scissors(f.ctx, LassoMode::EraseInside);
  draw(scissors, square(5));
  EXPECT_EQ(f.count(3), 15u);
  EXPECT_EQ(f.undo.count(), 1u);
}

TEST(LassoTool, CancelAndTinyOutlinesDoNothing) {
  OpsFixture f({20, 20, 10});
  LassoTool lasso(f.ctx);
  lasso.pointer(event(PointerAction::Press, {4.5, 4.5, 5}));
  lasso.pointer(event(PointerAction::Move, {12.5, 4.5, 5}));
  lasso.pointer(event(PointerAction::Cancel, {12.5, 4.5, 5}));
  EXPECT_FALSE(lasso.drawing());
  lasso.pointer(event(PointerAction::Release, {12.5, 12.5, 5}));  // no press: ignored
  // Points closer than a quarter voxel collapse: a "click" is no outline.
  draw(lasso, {{5, 5, 5}, {5.1, 5, 5}, {5, 5.1, 5}});
  EXPECT_EQ(f.count(1), 0u);
  EXPECT_EQ(f.undo.count(), 0u);
}

TEST(LassoTool, ModeSwitchAndThroughAllSlicesForTheLasso) {
  OpsFixture f({20, 20, 10});
  LassoTool lasso(f.ctx);
  lasso.setThroughAllSlices(true);
  draw(lasso, square(5));
  EXPECT_EQ(f.count(1), 64u * 10);
  lasso.setMode(LassoMode::EraseInside);
  EXPECT_TRUE(lasso.throughAllSlices());
  lasso.setMode(LassoMode::Fill);
  EXPECT_FALSE(lasso.throughAllSlices());
}

TEST(LassoTool, AnOffloadedCutIsWorkedOutWithoutWritingAndLandsAsOneUndoEntry) {
  // The app works out a cut through all slices on a worker (it reads the whole segment): the
  // work must not write the map, and its result applied afterwards is the same cut.
  OpsFixture f({20, 20, 10});
  f.paint(1, [](long i, long j, long) { return i >= 2 && i < 18 && j >= 2 && j < 18; });
  const auto before = f.snapshot();
  LassoTool scissors(f.ctx, LassoMode::EraseInside);
  std::string title;
  std::function<core::VoxelDelta(core::ProgressSink&)> work;
  std::function<void(core::VoxelDelta)> apply;
  scissors.setOffload([&](const std::string& t, auto w, auto a) {
    title = t;
    work = std::move(w);
    apply = std::move(a);
  });
  draw(scissors, square(5));
  ASSERT_TRUE(work && apply);
  EXPECT_EQ(title, "Scissors");
  EXPECT_EQ(f.snapshot(), before) << "nothing written before the work ran";
  core::NullProgress progress;
  core::VoxelDelta delta = work(progress);
  EXPECT_EQ(f.snapshot(), before) << "the work only reads";
  EXPECT_EQ(delta.changedVoxels(), 8u * 8u * 10u);
  apply(std::move(delta));
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long) {
                         return i >= 2 && i < 18 && j >= 2 && j < 18 && !inSquare(i, j);
                       }),
            0u);
  EXPECT_EQ(f.undo.count(), 1u);
  f.undo.undo();
  EXPECT_EQ(f.snapshot(), before);

  // The lasso on one slice stays immediate, offload or not.
  LassoTool lasso(f.ctx);
  lasso.setOffload([](const std::string&, auto, auto) { FAIL() << "one slice is not offloaded"; });
  draw(lasso, square(5));
  EXPECT_EQ(f.count(1), 16u * 16u * 10u);  // the square was inside the segment already
}
