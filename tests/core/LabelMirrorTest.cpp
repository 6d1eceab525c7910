#include "core/model/LabelMirror.h"

#include <gtest/gtest.h>

#include "core/edit/LabelMapEdit.h"

using namespace delineate::core;

namespace {

std::shared_ptr<LabelMap> makeMap() {
  ImageGeometry g;
  g.size = {64, 48, 40};
  return std::make_shared<LabelMap>("labels", g, std::vector<Segment>{{.label = 1, .name = "A"}});
}

VoxelBox paint(LabelMap& map, std::size_t i0, std::size_t i1, std::size_t k, std::uint16_t v) {
  LabelMapEdit edit(map);
  for (std::size_t i = i0; i < i1; ++i) {
    edit.write(i, 10, k, v);
  }
  const VoxelBox box = edit.dirtyBox();
  edit.commit();
  return box;
}

bool sameVoxels(const LabelMap& a, const LabelMap& b) {
  return std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

}  // namespace

TEST(LabelMirror, CopiesALoadedMapInStepsThatStayWithinTheBudget) {
  auto map = makeMap();
  paint(*map, 3, 30, 35, 1);
  LabelMirror mirror(map, false);
  const std::size_t sliceBytes = 64 * 48 * sizeof(std::uint16_t);
  int steps = 0;
  while (!mirror.update(4 * sliceBytes)) {
    ++steps;
    EXPECT_EQ(mirror.read(0), nullptr) << "not current yet";
  }
  EXPECT_EQ(steps, 9) << "40 slices, 4 per step";
  const auto copy = mirror.read();
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(sameVoxels(*copy, *map));
}

TEST(LabelMirror, OnlyTouchedBoxesAreCopiedAndReadersAreNeverWrittenUnder) {
  auto map = makeMap();
  LabelMirror mirror(map, true);
  auto reader = mirror.read();
  ASSERT_NE(reader, nullptr) << "an empty map's copy is current at once";
  mirror.touch(paint(*map, 5, 9, 2, 1));
  EXPECT_EQ(mirror.read(), nullptr) << "a job still reads the copy: the edit waits";
  EXPECT_EQ(reader->at(6, 10, 2), 0);
  reader.reset();
  // One row of 4 voxels is all that is outstanding: a tiny budget suffices.
  EXPECT_TRUE(mirror.update(8));
  reader = mirror.read();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->at(6, 10, 2), 1);
  EXPECT_TRUE(sameVoxels(*reader, *map));
  const auto second = mirror.read();
  EXPECT_EQ(second, reader) << "readers share one current copy";
}

TEST(LabelMirror, SegmentTableChangesReachTheCopyWhenNoOneReads) {
  auto map = makeMap();
  LabelMirror mirror(map, true);
  auto reader = mirror.read();
  map->segments()[0].name = "Renamed";
  EXPECT_EQ(mirror.read(), nullptr);
  EXPECT_EQ(reader->segments()[0].name, "A");
  reader.reset();
  reader = mirror.read();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->segments()[0].name, "Renamed");
}

TEST(LabelMirror, ManyScatteredEditsStayCorrect) {
  auto map = makeMap();
  LabelMirror mirror(map, true);
  for (std::size_t n = 0; n < 200; ++n) {
    mirror.touch(paint(*map, n % 50, n % 50 + 3, (n * 7) % 40, static_cast<std::uint16_t>(n % 5)));
  }
  const auto copy = mirror.read(std::size_t(1) << 30);
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(sameVoxels(*copy, *map));
}
