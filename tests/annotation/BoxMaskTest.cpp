#include "annotation/ops/BoxMask.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

TEST(BoxMask, IndexesInVolumeCoordinatesAndShrinksToContent) {
  BoxMask m(core::VoxelBox{{2, 3, 4}, {7, 9, 10}});
  EXPECT_EQ(m.bits.size(), 5u * 6 * 6);
  EXPECT_EQ(m.index(2, 3, 4), 0u);
  EXPECT_EQ(m.index(3, 3, 4), 1u);
  EXPECT_EQ(m.index(2, 4, 4), 5u);
  EXPECT_EQ(m.index(2, 3, 5), 30u);
  m.set(3, 5, 6);
  m.set(5, 4, 8);
  EXPECT_EQ(m.count(), 2u);
  EXPECT_EQ(m.at(3, 5, 6), 1);
  EXPECT_EQ(m.at(0, 0, 0), 0);  // outside the box
  const BoxMask tight = m.shrunkToContent();
  EXPECT_EQ(tight.box, (core::VoxelBox{{3, 4, 6}, {6, 6, 9}}));
  EXPECT_EQ(tight.count(), 2u);
  EXPECT_EQ(tight.at(5, 4, 8), 1);
  EXPECT_TRUE(BoxMask(core::VoxelBox{{0, 0, 0}, {4, 4, 4}}).contentBox().empty());
}

TEST(BoxMask, ReboxCropsAndPads) {
  const BoxMask m = maskOf({{0, 0, 0}, {6, 6, 6}}, [](long i, long, long) { return i >= 3; });
  const BoxMask crop = m.reboxed({{2, 2, 2}, {4, 4, 4}});
  EXPECT_EQ(crop.count(), 4u);  // i == 3 only, 2x2 rows
  const BoxMask grown = m.reboxed({{4, 0, 0}, {10, 6, 6}});
  EXPECT_EQ(grown.count(), 2u * 36);
  EXPECT_EQ(grown.at(9, 0, 0), 0);
  EXPECT_EQ(intersection({{0, 0, 0}, {3, 3, 3}}, {{3, 0, 0}, {5, 3, 3}}), core::VoxelBox{});
  EXPECT_EQ(padded({{1, 5, 5}, {2, 6, 6}}, {2, 2, 2}, {8, 7, 8}),
            (core::VoxelBox{{0, 3, 3}, {4, 7, 8}}));
}

TEST(BoxMask, ApplyPaintWritesTheMaskButNeverALockedSegment) {
  OpsFixture f({10, 10, 10});
  f.paint(3, [](long i, long, long) { return i == 5; });
  f.paint(2, [](long i, long, long) { return i == 6; });
  const BoxMask m = maskOf({{4, 0, 0}, {8, 10, 10}}, [](long, long, long) { return true; });
  core::LabelMapEdit edit(f.map());
  EXPECT_EQ(applyPaint(edit, m, 1), 300u);  // x = 4, 6, 7; x = 5 is locked
  edit.commit();
  EXPECT_EQ(f.count(1), 300u);
  EXPECT_EQ(f.count(3), 100u);
  EXPECT_EQ(f.count(2), 0u);

  core::LabelMapEdit emptyOnly(f.map(), {core::OverwriteMode::EmptyOnly});
  const BoxMask all = maskOf({{0, 0, 0}, {10, 10, 10}}, [](long, long, long) { return true; });
  EXPECT_EQ(applyPaint(emptyOnly, all, 2), 600u);
  emptyOnly.commit();
  EXPECT_EQ(f.count(1), 300u);
}

TEST(BoxMask, ApplyReplaceMakesTheSegmentExactlyTheMaskInsideTheBox) {
  OpsFixture f({12, 12, 12});
  f.paint(1, [](long i, long j, long k) { return inCube(i, j, k, 2, 10); });
  f.paint(2, [](long i, long, long) { return i == 0; });
  const core::VoxelBox box{{0, 0, 0}, {6, 12, 12}};
  // Inside the box the segment becomes the slab x in [4, 6) (also over empty voxels) and the
  // column of segment 2 at x = 0.
  const BoxMask m = maskOf(box, [](long i, long j, long) { return i >= 4 || (i == 0 && j < 3); });
  core::LabelMapEdit edit(f.map());
  applyReplace(edit, m, 1);
  edit.commit();
  for (long k = 0; k < 12; ++k) {
    for (long j = 0; j < 12; ++j) {
      for (long i = 0; i < 12; ++i) {
        std::uint16_t expected = 0;
        if (i >= 6) {
          expected = inCube(i, j, k, 2, 10) ? 1 : 0;  // outside the box: unchanged
        } else if (i >= 4 || (i == 0 && j < 3)) {
          expected = 1;
        } else if (i == 0) {
          expected = 2;
        }
        ASSERT_EQ(f.map().at(i, j, k), expected) << i << "," << j << "," << k;
      }
    }
  }
}

TEST(BoxMask, ExtractSegmentPadsAndClips) {
  OpsFixture f({10, 10, 10});
  f.paint(2, [](long i, long j, long k) { return i >= 1 && i < 3 && j == 4 && k == 9; });
  const BoxMask m = extractSegment(f.map(), 2, 2);
  EXPECT_EQ(m.box, (core::VoxelBox{{0, 2, 7}, {5, 7, 10}}));
  EXPECT_EQ(m.count(), 2u);
  EXPECT_EQ(m.at(2, 4, 9), 1);
  EXPECT_TRUE(extractSegment(f.map(), 1, 3).box.empty());
}

TEST(BoxMask, RestrictToPolicyKeepsOnlyWhatTheSegmentMayTake) {
  OpsFixture f({4, 1, 1});
  f.paint(1, [](long i, long, long) { return i == 0; });
  f.paint(2, [](long i, long, long) { return i == 1; });
  const BoxMask all = maskOf({{0, 0, 0}, {4, 1, 1}}, [](long, long, long) { return true; });
  const BoxMask emptyOnly = restrictToPolicy(all, f.map(), 1, {core::OverwriteMode::EmptyOnly});
  EXPECT_EQ(emptyOnly.bits, (std::vector<std::uint8_t>{1, 0, 1, 1}));
  const BoxMask inside = restrictToPolicy(all, f.map(), 1, {core::OverwriteMode::InsideSegment, 2});
  EXPECT_EQ(inside.bits, (std::vector<std::uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(restrictToPolicy(all, f.map(), 1, {}).bits, all.bits);
}
