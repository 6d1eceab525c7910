#include "annotation/tools/RegionGrowTool.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;
using core::Vec3;

namespace {

bool inBall(long i, long j, long k) {  // radius 6 at (16, 16, 8) on 1x1x2 mm voxels
  const double x = double(i - 16), y = double(j - 16), z = 2.0 * double(k - 8);
  return x * x + y * y + z * z <= 36.0;
}

// An image with a bright ball (200 +- 3) in a dim background (20), on 1x1x2 mm voxels.
struct ToolFixture : OpsFixture {
  ToolFixture() : OpsFixture({32, 32, 16}, {1, 1, 2}) {
    ctx.image = imageOf(ctx.labels->geometry(), [](long i, long j, long k) {
      return inBall(i, j, k) ? 200 + (i + j + k) % 7 - 3 : 20;
    });
  }
};

PointerEvent click(Vec3 world, bool shift = false, Vec3 normal = {0, 0, 1}) {
  PointerEvent e;
  e.action = PointerAction::Press;
  e.world = world;
  e.shift = shift;
  e.sliceNormal = normal;
  return e;
}

}  // namespace

TEST(RegionGrowTool, PlainClickFillsTheClickedSliceOnly) {
  ToolFixture f;
  RegionGrowTool tool(f.ctx);
  EXPECT_TRUE(tool.pointer(click({16.2, 15.9, 16.3})));  // voxel (16, 16, 8)
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long k) { return k == 8 && inBall(i, j, k); }),
            0u);
  EXPECT_EQ(f.undo.count(), 1u);
  EXPECT_EQ(f.undo.undoText(), "Region grow");
  ASSERT_EQ(f.notified.size(), 1u);
  EXPECT_EQ(f.notified[0], (core::VoxelBox{{10, 10, 8}, {23, 23, 9}}));
  // A coronal view: the slice is j = 16.
  f.undo.undo();
  tool.pointer(click({16, 16, 16}, false, {0, 1, 0}));
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long k) { return j == 16 && inBall(i, j, k); }),
            0u);
}

TEST(RegionGrowTool, ShiftClickGrowsIn3DAndUndoRestoresTheOriginal) {
  ToolFixture f;
  f.paint(2, [](long i, long, long) { return i < 3; });
  const auto before = f.snapshot();
  RegionGrowTool tool(f.ctx);
  tool.pointer(click({16, 16, 16}, true));
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       inBall),
            0u);
  EXPECT_EQ(f.undo.count(), 1u);
  f.undo.undo();
  EXPECT_EQ(f.snapshot(), before);
}

TEST(RegionGrowTool, RangeComesFromTheContextOrTheNeighbourhood) {
  ToolFixture f;
  RegionGrowTool tool(f.ctx);
  // Automatic: the 5x5x5 neighbourhood of the centre is all ball: 200 +- 3, SD ~2 -> ~ +-5.
  const auto [lo, hi] = tool.rangeAt({16, 16, 8});
  EXPECT_GT(lo, 190);
  EXPECT_LT(hi, 210);
  EXPECT_LE(lo, 197);
  EXPECT_GE(hi, 203);
  // Set explicitly: a click in the background with a range covering everything fills it all.
  f.ctx.intensityRange = std::pair{0.0, 1000.0};
  EXPECT_EQ(tool.rangeAt({0, 0, 0}), (std::pair{0.0, 1000.0}));
  tool.pointer(click({0, 0, 0}, true));
  EXPECT_EQ(f.count(1), f.map().voxelCount() - f.count(3));
}

TEST(RegionGrowTool, LockedVoxelsSurviveAndTheyStillConduct) {
  ToolFixture f;
  // A locked wall cutting the ball's centre slice in two: the grow follows the image, so it
  // reaches both halves, but never writes the wall.
  f.paint(3, [](long i, long, long k) { return k == 8 && i == 16; });
  const std::size_t locked = f.count(3);
  RegionGrowTool tool(f.ctx);
  tool.pointer(click({16, 16, 16}));
  EXPECT_EQ(f.count(3), locked);
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       [](long i, long j, long k) { return k == 8 && i != 16 && inBall(i, j, k); }),
            0u);
}

TEST(RegionGrowTool, ClicksOutsideTheImageOrNotPressesAreIgnored) {
  ToolFixture f;
  RegionGrowTool tool(f.ctx);
  EXPECT_FALSE(tool.pointer(click({-5, 3, 3})));
  EXPECT_FALSE(tool.pointer(click({3, 3, 40})));
  PointerEvent move = click({16, 16, 16});
  move.action = PointerAction::Move;
  EXPECT_FALSE(tool.pointer(move));
  PointerEvent right = click({16, 16, 16});
  right.button = PointerButton::Right;
  EXPECT_FALSE(tool.pointer(right));
  EXPECT_EQ(f.undo.count(), 0u);
  EXPECT_EQ(f.count(1), 0u);
}

// The app's region grow is this tool with its fill handed to a job: nothing changes until the
// job's result comes back, then the same voxels as a click filled at once, as one undo entry.
TEST(RegionGrowTool, AnOffloadedFillPaintsOnlyWhenItsResultComesBack) {
  ToolFixture f;
  RegionGrowTool tool(f.ctx);
  std::string title;
  std::function<BoxMask(core::ProgressSink&)> work;
  std::function<void(BoxMask)> apply;
  tool.setOffload([&](const std::string& t, std::function<BoxMask(core::ProgressSink&)> w,
                      std::function<void(BoxMask)> a) {
    title = t;
    work = std::move(w);
    apply = std::move(a);
  });
  EXPECT_TRUE(tool.pointer(click({16, 16, 16}, true)));
  EXPECT_EQ(title, "Region grow (3D)");
  ASSERT_TRUE(work && apply);
  EXPECT_EQ(extractSegment(f.map(), 1).count(), 0u) << "nothing painted before the job is done";
  EXPECT_EQ(f.undo.count(), 0u);
  core::NullProgress progress;
  apply(work(progress));
  EXPECT_EQ(mismatches(extractSegment(f.map(), 1), core::VoxelBox::whole(f.map().geometry().size),
                       inBall),
            0u);
  EXPECT_EQ(f.undo.count(), 1u);
  EXPECT_EQ(f.undo.undoText(), "Region grow");
  EXPECT_EQ(tool.id(), "tool.regionGrow") << "the command id the app chooses it by";
}
