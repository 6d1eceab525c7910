// Tomosynthesis slabs: which frames a slab of a width in mm takes (centred, kept inside the
// stack), and its values against a direct computation of the average and the maximum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "DicomTestSupport.h"
#include "core/Error.h"
#include "core/mammo/TomoSlab.h"

using namespace delineate::core;
using namespace delineate::core::mammo;
using delineate::test::makeVolume;

namespace {

TEST(TomoSlab, FramesAreCentredAndKeptInsideTheStack) {
  // 1 mm apart, 5 mm: 5 frames, 2 either side.
  EXPECT_EQ(slabFrames(10, 30, 1.0, 5.0), std::make_pair(std::size_t{8}, std::size_t{12}));
  // 0.5 mm apart: 10 frames, 4 before and 5 after.
  EXPECT_EQ(slabFrames(10, 30, 0.5, 5.0), std::make_pair(std::size_t{6}, std::size_t{15}));
  // At the ends the slab keeps its width, moved inwards.
  EXPECT_EQ(slabFrames(0, 30, 1.0, 5.0), std::make_pair(std::size_t{0}, std::size_t{4}));
  EXPECT_EQ(slabFrames(29, 30, 1.0, 5.0), std::make_pair(std::size_t{25}, std::size_t{29}));
  // Thinner than a frame: the frame itself; wider than the stack: all of it.
  EXPECT_EQ(slabFrames(7, 30, 1.0, 0.2), std::make_pair(std::size_t{7}, std::size_t{7}));
  EXPECT_EQ(slabFrames(3, 9, 1.0, 50.0), std::make_pair(std::size_t{0}, std::size_t{8}));
  // No spacing known: 1 mm.
  EXPECT_EQ(slabFrames(10, 30, 0.0, 3.0), std::make_pair(std::size_t{9}, std::size_t{11}));
}

double value(std::size_t i, std::size_t j, std::size_t k) {
  return double((i * 7919 + j * 104729 + k * 1299709) % 4001);
}

TEST(TomoSlab, AverageAndMaximumMatchADirectComputation) {
  ImageGeometry g;
  g.size = {37, 23, 9};
  g.spacing = {0.1, 0.1, 1.0};
  for (const ScalarType type : {ScalarType::UInt16, ScalarType::Float32}) {
    const VolumePtr stack = makeVolume(type, g, {}, value);
    for (const SlabMode mode : {SlabMode::Average, SlabMode::Maximum}) {
      const VolumePtr slab = slabOf(*stack, 2, 6, mode);
      ASSERT_EQ(slab->geometry().size, (std::array<std::size_t, 3>{37, 23, 1}));
      EXPECT_EQ(slab->scalarType(), type);
      EXPECT_DOUBLE_EQ(slab->geometry().origin[2], 4.0);  // the slab's middle frame
      for (std::size_t j = 0; j < 23; ++j) {
        for (std::size_t i = 0; i < 37; ++i) {
          double sum = 0, best = -1;
          for (std::size_t k = 2; k <= 6; ++k) {
            sum += value(i, j, k);
            best = std::max(best, value(i, j, k));
          }
          const double expected = mode == SlabMode::Maximum    ? best
                                  : type == ScalarType::UInt16 ? std::round(sum / 5)
                                                               : sum / 5;
          const double got = type == ScalarType::UInt16
                                 ? double(slab->data<std::uint16_t>()[j * 37 + i])
                                 : double(slab->data<float>()[j * 37 + i]);
          ASSERT_NEAR(got, expected, 1e-3) << keyOf(mode) << " at " << i << ", " << j;
        }
      }
    }
  }
}

TEST(TomoSlab, FramesOutsideTheStackAreRefused) {
  ImageGeometry g;
  g.size = {4, 4, 3};
  const VolumePtr stack = makeVolume(ScalarType::UInt16, g, {}, value);
  EXPECT_THROW(slabOf(*stack, 1, 3, SlabMode::Average), Error);
  EXPECT_THROW(slabOf(*stack, 2, 1, SlabMode::Maximum), Error);
}

}  // namespace
