// The built-in engine's answer to a box and the clicks after it (annotation/engine/
// BoxPromptSegmenter): a tight box drawn on the axial, coronal or sagittal slice finds the whole
// structure and not its touching twin of the same tissue; clicks from the simulated user only
// ever improve it; a negative click changes only what lies near it; the slices the user says
// the structure spans bound it; a box outside the image, cancellation, determinism.
#include "annotation/engine/BoxPromptSegmenter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "OpsTestSupport.h"
#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/MaskRefiner.h"
#include "core/Error.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

bool inEllipsoid(long i, long j, long k, double ci, double cj, double ck, double ri, double rj,
                 double rk) {
  const double a = (i - ci) / ri, b = (j - cj) / rj, c = (k - ck) / rk;
  return a * a + b * b + c * c <= 1.0;
}

// The structure: an ellipsoid (radii 10, 7, 6 voxels) of value 120 at (30, 30, 26). Its twin of
// the same tissue touches it along x; a bright slab (200) touches it from below in y; the rest
// is 80. Noise SD 6.
bool inStructure(long i, long j, long k) {
  return inEllipsoid(i, j, k, 30, 30, 26, 10, 7, 6);
}
bool inTwin(long i, long j, long k) {
  return inEllipsoid(i, j, k, 49, 30, 26, 9, 7, 6);
}

core::VolumePtr sceneImage() {
  return imageOf(annotation::testing::grid({72, 60, 52}), [](long i, long j, long k) {
    const double v = inStructure(i, j, k) || inTwin(i, j, k) ? 120 : j >= 37 ? 200 : 80;
    return v + 6 * voxelNoise(i, j, k, 1);
  });
}

BoxMask structureTruth() {
  return maskOf(core::VoxelBox::whole({72, 60, 52}), inStructure).shrunkToContent();
}

core::VoxelBox tightBox(const BoxMask& truth, int axis) {
  return largestSliceBox(truth, axis);
}

class CancelAtOnce : public core::ProgressSink {
 public:
  void report(double, std::string_view) override {}
  bool cancelled() const override { return true; }
};

}  // namespace

TEST(BoxPromptSegmenter, ATightBoxOnAnyPlaneFindsTheStructureAndNotItsTwin) {
  const core::VolumePtr image = sceneImage();
  const BoxMask truth = structureTruth();
  const BoxMask twin = maskOf(core::VoxelBox::whole({72, 60, 52}), inTwin).shrunkToContent();
  const BoxPromptSegmenter segmenter;
  core::NullProgress progress;
  for (int axis = 0; axis < 3; ++axis) {
    const BoxMask result = segmenter.segment(*image, tightBox(truth, axis), axis, {}, progress);
    // (The light smoothing that real images want puts the edge up to a voxel out on this
    // noisy ellipsoid: Dice 0.83 for a one-voxel shell.)
    EXPECT_GT(dice(truth, result), 0.8) << "axis " << axis;
    // Off its slice the structure is found too, not only the box's slice.
    EXPECT_GT(result.count(), truth.count() * 8 / 10) << "axis " << axis;
    EXPECT_LT(result.count(), truth.count() * 3 / 2) << "axis " << axis;
    // The twin of the same tissue beside it is left alone, as is the bright slab.
    EXPECT_LT(dice(twin, result), 0.1) << "axis " << axis;
    EXPECT_LT(result.box.hi[1], 40u) << "axis " << axis;
  }
}

TEST(BoxPromptSegmenter, TheSimulatedUsersClicksNeverMakeItWorse) {
  // A box drawn loosely on a slice off the structure's middle.
  const core::VolumePtr image = sceneImage();
  const BoxMask truth = structureTruth();
  const BoxPromptSegmenter segmenter;
  const ClickSimulator simulator(truth, image->geometry().spacing);
  core::NullProgress progress;
  const core::VoxelBox box{{19, 23, 24}, {42, 38, 25}};
  std::vector<GuidanceClick> clicks;
  BoxMask result = segmenter.segment(*image, box, 2, clicks, progress);
  double before = dice(truth, result);
  const double first = before;
  for (int n = 0; n < 5; ++n) {
    const auto click = simulator.nextClick(result);
    if (!click) {
      break;
    }
    clicks.push_back(*click);
    result = segmenter.segment(*image, box, 2, clicks, progress);
    const double after = dice(truth, result);
    EXPECT_GT(after, before - 0.05) << "click " << n + 1;
    before = after;
  }
  EXPECT_GT(before, first);
  EXPECT_GT(before, 0.8);
}

TEST(BoxPromptSegmenter, ANegativeClickChangesOnlyWhatLiesNearIt) {
  const core::VolumePtr image = sceneImage();
  const BoxMask truth = structureTruth();
  const BoxPromptSegmenter segmenter;
  core::NullProgress progress;
  const core::VoxelBox box = tightBox(truth, 2);
  const BoxMask plain = segmenter.segment(*image, box, 2, {}, progress);
  // A negative click at the structure's left end (x 22) takes that end away...
  const BoxMask cut = segmenter.segment(*image, box, 2, {{{22, 30, 26}, false}}, progress);
  EXPECT_FALSE(cut.contains(22, 30, 26) && cut.at(22, 30, 26));
  EXPECT_LT(cut.count(), plain.count());
  // ...and leaves the far right half as it was.
  std::size_t same = 0, total = 0;
  for (std::size_t k = 18; k < 34; ++k) {
    for (std::size_t j = 22; j < 38; ++j) {
      for (std::size_t i = 32; i < 41; ++i) {
        const bool a = plain.contains(i, j, k) && plain.at(i, j, k);
        const bool b = cut.contains(i, j, k) && cut.at(i, j, k);
        total += a;
        same += a && b;
      }
    }
  }
  ASSERT_GT(total, 0u);
  EXPECT_GT(double(same) / double(total), 0.95);
  // A negative click far from the box, in the image's corner, changes nothing at all (it used to
  // widen the region of interest to take it in, and the wider region's contrast moved the edge).
  const BoxMask far = segmenter.segment(*image, box, 2, {{{2, 2, 2}, false}}, progress);
  EXPECT_EQ(far.box, plain.box);
  EXPECT_TRUE(far.bits == plain.bits) << "a far negative click changed the answer";
  const MaskRefiner refiner;
  const BoxMask refined = refiner.refine(*image, plain, {}, progress);
  const BoxMask refinedFar = refiner.refine(*image, plain, {{{2, 2, 2}, false}}, progress);
  EXPECT_EQ(refinedFar.box, refined.box);
  EXPECT_TRUE(refinedFar.bits == refined.bits) << "a far negative click changed the refinement";
}

// A tall structure (radii 8, 6, 16 voxels about (30, 30, 26)) with a thin sheet of its own
// tissue hanging below it (x 29..31, y 24..36, down from k 12): the box's answer takes in the
// sheet's upper part, and the user clicks it away on the sheet.
TEST(BoxPromptSegmenter, ANegativeClickOnAThinSheetTakesTheSheetAndNotTheStructureBehindIt) {
  auto inTall = [](long i, long j, long k) { return inEllipsoid(i, j, k, 30, 30, 26, 8, 6, 16); };
  auto inSheet = [](long i, long j, long k) {
    return i >= 29 && i <= 31 && j >= 24 && j <= 36 && k >= 2 && k <= 12;
  };
  const core::VolumePtr image =
      imageOf(annotation::testing::grid({72, 60, 52}), [&](long i, long j, long k) {
        const double v = inTall(i, j, k) || inSheet(i, j, k) ? 120 : 80;
        return v + 6 * voxelNoise(i, j, k, 1);
      });
  const BoxMask truth = maskOf(core::VoxelBox::whole({72, 60, 52}), inTall).shrunkToContent();
  core::NullProgress progress;
  const core::VoxelBox box = tightBox(truth, 2);
  auto lost = [&](const BoxMask& before, const BoxMask& after) {
    std::size_t n = 0;
    for (std::size_t k = truth.box.lo[2]; k < truth.box.hi[2]; ++k) {
      for (std::size_t j = truth.box.lo[1]; j < truth.box.hi[1]; ++j) {
        for (std::size_t i = truth.box.lo[0]; i < truth.box.hi[0]; ++i) {
          n += truth.at(i, j, k) && before.contains(i, j, k) && before.at(i, j, k) &&
               !(after.contains(i, j, k) && after.at(i, j, k));
        }
      }
    }
    return n;
  };
  auto sheetVoxels = [&](const BoxMask& m) {
    std::size_t n = 0;
    for (long k = 2; k <= 12; ++k) {
      for (long j = 24; j <= 36; ++j) {
        for (long i = 29; i <= 31; ++i) {
          n += m.contains(i, j, k) && m.at(i, j, k) && !inTall(i, j, k);
        }
      }
    }
    return n;
  };
  const BoxPromptSegmenter segmenter;
  const BoxMask plain = segmenter.segment(*image, box, 2, {}, progress);
  ASSERT_GT(sheetVoxels(plain), 40u);
  ASSERT_TRUE(plain.contains(30, 30, 8) && plain.at(30, 30, 8));
  const std::vector<GuidanceClick> onSheet{{{30, 30, 8}, false}};
  const BoxMask cut = segmenter.segment(*image, box, 2, onSheet, progress);
  EXPECT_LT(sheetVoxels(cut), sheetVoxels(plain) / 3);
  EXPECT_LT(lost(plain, cut), truth.count() / 20) << "of " << truth.count();
  // A negative click below what the answer took in changes next to nothing.
  ASSERT_FALSE(plain.contains(30, 30, 5) && plain.at(30, 30, 5));
  const std::vector<GuidanceClick> below{{{30, 30, 5}, false}};
  EXPECT_LT(lost(plain, segmenter.segment(*image, box, 2, below, progress)), 10u);
  // Without the limit by depth the click's front ran on into the structure, both times.
  BoxPromptOptions unlimited;
  unlimited.negativeDepthScale = 0;
  const BoxPromptSegmenter old(unlimited);
  const BoxMask oldPlain = old.segment(*image, box, 2, {}, progress);
  EXPECT_GT(lost(oldPlain, old.segment(*image, box, 2, onSheet, progress)), 3 * lost(plain, cut));
  EXPECT_GT(lost(oldPlain, old.segment(*image, box, 2, below, progress)), 30u);
}

// A tube of the structure's tissue along z (k 6..45) of which the structure is the part on
// slices 16..35 only: nothing in the image says where it ends.
bool inTube(long i, long j, long k) {
  return k >= 6 && k < 46 && inEllipsoid(i, j, 0, 30, 30, 0, 8, 6, 1);
}

TEST(BoxPromptSegmenter, TheSlicesTheUserSaysTheStructureSpansBoundIt) {
  const core::Size3 size{60, 60, 52};
  const core::VolumePtr image =
      imageOf(annotation::testing::grid(size), [](long i, long j, long k) {
        return (inTube(i, j, k) ? 120.0 : 80.0) + 6 * voxelNoise(i, j, k, 2);
      });
  const BoxMask truth = maskOf(core::VoxelBox::whole(size), [](long i, long j, long k) {
                          return inTube(i, j, k) && k >= 16 && k < 36;
                        }).shrunkToContent();
  // The challenge's box: the middle slice (25) with the top and bottom slice.
  const core::VoxelBox box = middleSliceBox(truth, 2);
  ASSERT_EQ(box.lo[2], 25u);
  const BoxPromptSegmenter segmenter;
  core::NullProgress progress;
  const auto slicesOutside = [](const BoxMask& m, std::size_t lo, std::size_t hi) {
    std::size_t n = 0;
    for (std::size_t k = m.box.lo[2]; k < m.box.hi[2]; ++k) {
      for (std::size_t j = m.box.lo[1]; j < m.box.hi[1]; ++j) {
        for (std::size_t i = m.box.lo[0]; i < m.box.hi[0]; ++i) {
          n += m.at(i, j, k) && (k < lo || k >= hi);
        }
      }
    }
    return n;
  };
  // Without a span the tube is followed past the structure's ends.
  const BoxMask open = segmenter.segment(*image, box, 2, {}, progress);
  EXPECT_GT(slicesOutside(open, 16, 36), 0u);
  // With both ends it keeps to them and finds all of it in between.
  const BoxMask spanned = segmenter.segment(*image, box, 2, AxisSpan{16, 36}, {}, progress);
  EXPECT_EQ(slicesOutside(spanned, 16, 36), 0u);
  EXPECT_GT(dice(truth, spanned), 0.9);
  EXPECT_GT(dice(truth, spanned), dice(truth, open) + 0.05);
  EXPECT_EQ(spanned.box.lo[2], 16u);
  EXPECT_EQ(spanned.box.hi[2], 36u);
  // One end given: that side is bounded, the other as before.
  const BoxMask below = segmenter.segment(*image, box, 2, AxisSpan{16, std::nullopt}, {}, progress);
  EXPECT_EQ(slicesOutside(below, 16, 100), 0u);
  EXPECT_EQ(below.box.lo[2], 16u);
  // An end that leaves out the box's own slice is not used.
  const BoxMask wrong = segmenter.segment(*image, box, 2, AxisSpan{30, 36}, {}, progress);
  EXPECT_LT(wrong.box.lo[2], 25u);
  // A positive click past an end moves the end there: the user's later word wins.
  const BoxMask clicked =
      segmenter.segment(*image, box, 2, AxisSpan{16, 36}, {{{30, 30, 40}, true}}, progress);
  EXPECT_TRUE(clicked.contains(30, 30, 40) && clicked.at(30, 30, 40));
  EXPECT_EQ(slicesOutside(clicked, 16, 41), 0u);
}

TEST(BoxPromptSegmenter, ABoxOutsideTheImageGivesNothingAndCancellingStops) {
  const core::VolumePtr image = sceneImage();
  const BoxPromptSegmenter segmenter;
  core::NullProgress progress;
  EXPECT_TRUE(segmenter.segment(*image, {{100, 100, 10}, {120, 120, 11}}, 2, {}, progress).none());
  CancelAtOnce cancel;
  EXPECT_THROW(segmenter.segment(*image, tightBox(structureTruth(), 2), 2, {}, cancel),
               core::CancelledError);
  // The same prompts give the same voxels.
  const core::VoxelBox box = tightBox(structureTruth(), 1);
  const BoxMask a = segmenter.segment(*image, box, 1, {{{30, 30, 30}, true}}, progress);
  const BoxMask b = segmenter.segment(*image, box, 1, {{{30, 30, 30}, true}}, progress);
  EXPECT_EQ(a.box, b.box);
  EXPECT_EQ(a.bits, b.bits);
}

// The mask refiner (annotation/engine/MaskRefiner): the structure as the user has it, corrected
// by clicks.
TEST(MaskRefiner, WithoutClicksTheMaskStaysAndAClickCorrectsOnlyItsRegion) {
  const core::VolumePtr image = sceneImage();
  const BoxMask truth = structureTruth();
  const core::Size3 size{72, 60, 52};
  // The user's segment: the structure and, wrongly, the near end of its twin.
  const BoxMask withPartOfTwin = maskOf(core::VoxelBox::whole(size), [](long i, long j, long k) {
                                   return inStructure(i, j, k) || (inTwin(i, j, k) && i < 46);
                                 }).shrunkToContent();
  const MaskRefiner refiner;
  core::NullProgress progress;
  const BoxMask kept = refiner.refine(*image, withPartOfTwin, {}, progress);
  EXPECT_GT(dice(withPartOfTwin, kept), 0.9) << "no click: the segment as it was";
  // A negative click in the twin's part takes that part away and keeps the structure.
  const BoxMask cut = refiner.refine(*image, withPartOfTwin, {{{43, 30, 26}, false}}, progress);
  EXPECT_GT(dice(truth, cut), 0.85);
  EXPECT_FALSE(cut.contains(43, 30, 26) && cut.at(43, 30, 26));
  // A segment missing the structure's left half: a positive click there brings it back.
  const BoxMask missing = maskOf(core::VoxelBox::whole(size), [](long i, long j, long k) {
                            return inStructure(i, j, k) && i >= 31;
                          }).shrunkToContent();
  const double before = dice(truth, missing);
  const BoxMask added = refiner.refine(*image, missing, {{{23, 30, 26}, true}}, progress);
  EXPECT_GT(dice(truth, added), before + 0.1);
  EXPECT_GT(dice(truth, added), 0.75);
  EXPECT_TRUE(refiner.refine(*image, BoxMask{}, {}, progress).none());
}
