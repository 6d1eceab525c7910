// Band edges that follow a drifting tissue (annotation/engine/LocalBandShift): two tissues whose
// values are 10 % higher in one half of the region, as under an MR bias field.
#include "annotation/engine/LocalBandShift.h"

#include <gtest/gtest.h>

using namespace delineate;
using namespace delineate::annotation;

namespace {

// 48 x 48 x 96: tissue A (100) for x < 24, tissue B (200) beyond, both times `upperScale` for
// z >= 48.
RoiImage twoTissues(double upperScale) {
  RoiImage roi;
  roi.grid.box = core::VoxelBox::whole({48, 48, 96});
  roi.smoothNoiseSd = 1;
  roi.noiseSd = 1;
  roi.smooth.resize(roi.grid.count());
  for (std::size_t at = 0; at < roi.smooth.size(); ++at) {
    const core::Size3 v = roi.grid.voxel(at);
    roi.smooth[at] = float((v[0] < 24 ? 100 : 200) * (v[2] >= 48 ? upperScale : 1.0));
  }
  roi.raw = roi.smooth;
  return roi;
}

// A's band as the modes of the whole region would place it: half way to B.
IntensityBand bandOfA() {
  IntensityBand a;
  a.centre = 100;
  a.lo = 50;
  a.hi = 150;
  a.upperNeighbour = 200;
  return a;
}

}  // namespace

TEST(LocalBandShift, EdgesFollowTheTissuesWhereTheyDrift) {
  const RoiImage roi = twoTissues(1.1);
  const LocalBandShift shift(roi, {bandOfA()});
  const std::size_t low = roi.grid.index({10, 20, 5}), high = roi.grid.index({10, 20, 90});
  // Where nothing moved, the band is the region's.
  EXPECT_EQ(shift.groupOf(149, low), 1);
  EXPECT_EQ(shift.groupOf(151, low), 0);
  EXPECT_EQ(shift.groupOf(51, low), 1);
  // Where A is 110 and B 220, the upper edge lies half way between them (165) and the lower
  // edge, without a neighbour, moves with A (60).
  EXPECT_EQ(shift.groupOf(163, high), 1);
  EXPECT_EQ(shift.groupOf(167, high), 0);
  EXPECT_EQ(shift.groupOf(58, high), 0);
  EXPECT_EQ(shift.groupOf(62, high), 1);
}

TEST(LocalBandShift, KeepsTheBandWhereNothingDrifts) {
  const RoiImage roi = twoTissues(1.0);
  const LocalBandShift shift(roi, {bandOfA()});
  for (std::size_t at : {std::size_t(0), roi.smooth.size() / 2, roi.smooth.size() - 1}) {
    EXPECT_EQ(shift.groupOf(149, at), 1);
    EXPECT_EQ(shift.groupOf(151, at), 0);
    EXPECT_EQ(shift.groupOf(51, at), 1);
    EXPECT_EQ(shift.groupOf(49, at), 0);
  }
}
