// Segmented Palette Color LUT Data (PS3.3 C.7.9.2): how each segment type expands, and what a
// malformed table is told apart by.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/Error.h"
#include "core/io/DicomPalette.h"

using namespace delineate::core;

TEST(DicomPalette, DiscreteAndLinearSegmentsExpandAsTheStandardDraws) {
  // 2 discrete entries, then a ramp of 4 steps from the last one (10) to 50.
  const std::vector<std::uint16_t> items = {0, 2, 0, 10, 1, 4, 50};
  EXPECT_EQ(expandSegmentedLut(items, "x.dcm"),
            (std::vector<std::uint16_t>{0, 10, 20, 30, 40, 50}));
}

TEST(DicomPalette, AnIndirectSegmentRepeatsEarlierSegments) {
  // discrete {5, 6}; linear to 9 in 3 steps; indirect: the 2 segments from item 0 again.
  const std::vector<std::uint16_t> items = {0, 2, 5, 6, 1, 3, 9, 2, 2, 0, 0};
  EXPECT_EQ(expandSegmentedLut(items, "x.dcm"),
            (std::vector<std::uint16_t>{5, 6, 7, 8, 9, 5, 6, 7, 8, 9}));
}

TEST(DicomPalette, MalformedSegmentsAreRefusedNamingTheFile) {
  const std::vector<std::vector<std::uint16_t>> bad = {
      {1, 4, 50},               // a linear segment first: no value to start from
      {0, 5, 1, 2},             // a discrete segment longer than the data
      {7, 1, 0},                // an unknown segment type
      {0, 1, 3, 2, 1, 500, 0},  // an indirect segment pointing past the end
      {0, 1, 3, 2, 1, 3, 0},    // an indirect segment pointing at itself: a loop
  };
  for (const auto& items : bad) {
    try {
      expandSegmentedLut(items, "bad-palette.dcm");
      ADD_FAILURE() << "accepted a malformed table of " << items.size() << " items";
    } catch (const Error& e) {
      EXPECT_EQ(e.where(), "bad-palette.dcm");
      EXPECT_NE(std::string(e.what()).find("Segmented Palette"), std::string::npos) << e.what();
    }
  }
}

TEST(DicomPalette, ValuesOutsideTheTableTakeItsEnds) {
  DicomPalette p;
  p.firstMapped = 100;
  p.tables = {std::vector<std::uint16_t>{1, 2, 3}, std::vector<std::uint16_t>{4, 5, 6},
              std::vector<std::uint16_t>{7, 8, 9}};
  EXPECT_EQ(p.map(0, 0), 1);
  EXPECT_EQ(p.map(0, 101), 2);
  EXPECT_EQ(p.map(2, 102), 9);
  EXPECT_EQ(p.map(1, 5000), 6);
}
