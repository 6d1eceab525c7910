// The mammography display table (DisplayLut) against values computed by hand from PS3.3
// C.11.2.1.2 (LINEAR, LINEAR_EXACT, SIGMOID, VOI LUT tables) and C.7.6.3.1.2 (MONOCHROME1).
#include "core/mammo/DisplayLut.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace delineate::core;
using namespace delineate::core::mammo;

namespace {

VolumeInfo monochrome(const std::string& photometric = "MONOCHROME2") {
  VolumeInfo info;
  info.modality = "MG";
  info.photometric = photometric;
  return info;
}

DisplaySettings window(double center, double width, const std::string& function = "") {
  DisplaySettings s;
  s.center = center;
  s.width = width;
  s.function = function;
  return s;
}

// The table's entry for `value`, checked against map().
int viaTable(const DisplayLut& lut, int value) {
  EXPECT_TRUE(lut.hasTable());
  const int index = value - lut.offset();
  EXPECT_GE(index, 0);
  EXPECT_LT(static_cast<std::size_t>(index), lut.size());
  const int fromTable = lut.table()[index];
  EXPECT_EQ(fromTable, lut.map(value)) << "table and map() differ at " << value;
  return fromTable;
}

}  // namespace

TEST(DisplayLut, LinearWindowByHand) {
  // c = 2048, w = 4096: x <= 2047.5 - 2047.5 = 0 -> 0; x > 2047.5 + 2047.5 = 4095 -> 255;
  // else ((x - 2047.5) / 4095 + 0.5) * 255.
  const auto lut = DisplayLut::build(monochrome(), ScalarType::UInt16, window(2048, 4096));
  EXPECT_EQ(lut.size(), 65536u);
  EXPECT_EQ(lut.offset(), 0);
  EXPECT_EQ(viaTable(lut, 0), 0);
  EXPECT_EQ(viaTable(lut, 1), 0);       // 0.062
  EXPECT_EQ(viaTable(lut, 2047), 127);  // 127.469
  EXPECT_EQ(viaTable(lut, 2048), 128);  // 127.531
  EXPECT_EQ(viaTable(lut, 4095), 255);  // exactly 255, still inside
  EXPECT_EQ(viaTable(lut, 4096), 255);
  EXPECT_EQ(viaTable(lut, 65535), 255);
  // "LINEAR" spelled out is the same function.
  const auto named =
      DisplayLut::build(monochrome(), ScalarType::UInt16, window(2048, 4096, "LINEAR"));
  EXPECT_TRUE(std::equal(lut.table(), lut.table() + lut.size(), named.table()));
}

TEST(DisplayLut, LinearWidthBelowOneIsOne) {
  // w = 1: x <= c - 0.5 -> 0, else 255 (a step between 99 and 100 for c = 100).
  for (double w : {1.0, 0.5, 0.0, -3.0}) {
    const auto lut = DisplayLut::build(monochrome(), ScalarType::UInt8, window(100, w));
    EXPECT_EQ(lut.size(), 256u);
    EXPECT_EQ(viaTable(lut, 99), 0) << w;
    EXPECT_EQ(viaTable(lut, 100), 255) << w;
    EXPECT_EQ(lut.map(99.5), 0) << w;
    EXPECT_EQ(lut.map(99.6), 255) << w;
  }
}

TEST(DisplayLut, LinearExactByHand) {
  // c = 2048, w = 4096: x <= 0 -> 0; x > 4096 -> 255; else ((x - 2048) / 4096 + 0.5) * 255.
  const auto lut =
      DisplayLut::build(monochrome(), ScalarType::UInt16, window(2048, 4096, "LINEAR_EXACT"));
  EXPECT_EQ(viaTable(lut, 0), 0);
  EXPECT_EQ(viaTable(lut, 1), 0);       // 0.062
  EXPECT_EQ(viaTable(lut, 1024), 64);   // 63.75
  EXPECT_EQ(viaTable(lut, 2048), 128);  // 127.5 rounds up
  EXPECT_EQ(viaTable(lut, 3072), 191);  // 191.25
  EXPECT_EQ(viaTable(lut, 4095), 255);  // 254.94
  EXPECT_EQ(viaTable(lut, 5000), 255);
  EXPECT_EQ(lut.map(2048.5), 128);  // 127.53
}

TEST(DisplayLut, SigmoidByHand) {
  // 255 / (1 + exp(-4 (x - 2048) / 4096)).
  const auto lut =
      DisplayLut::build(monochrome(), ScalarType::UInt16, window(2048, 4096, "SIGMOID"));
  EXPECT_EQ(viaTable(lut, 2048), 128);  // 127.5 rounds up
  EXPECT_EQ(viaTable(lut, 0), 30);      // 255 / (1 + e^2) = 30.397
  EXPECT_EQ(viaTable(lut, 1024), 69);   // 255 / (1 + e) = 68.580
  EXPECT_EQ(viaTable(lut, 3072), 186);  // 255 / (1 + e^-1) = 186.420
  EXPECT_EQ(viaTable(lut, 4095), 225);  // 224.577
  EXPECT_EQ(viaTable(lut, 65535), 255);
  // Function names are read case-insensitively.
  const auto lower =
      DisplayLut::build(monochrome(), ScalarType::UInt16, window(2048, 4096, "sigmoid"));
  EXPECT_EQ(lower.map(0), 30);
}

TEST(DisplayLut, VoiLutTableByHand) {
  // firstValue 100, 12 bits, data {0, 4095, 2048}: 100 and below -> 0, 101 -> 4095 -> 255,
  // 102 and above -> 2048 -> 2048 * 255 / 4095 = 127.53 -> 128. The window is ignored.
  VolumeInfo info = monochrome();
  info.voiLuts.push_back({"Test", 100, 12, {0, 4095, 2048}});
  DisplaySettings s = window(0, 1, "SIGMOID");
  s.voiLut = 0;
  const auto lut = DisplayLut::build(info, ScalarType::UInt16, s);
  EXPECT_EQ(viaTable(lut, 0), 0);
  EXPECT_EQ(viaTable(lut, 100), 0);
  EXPECT_EQ(viaTable(lut, 101), 255);
  EXPECT_EQ(viaTable(lut, 102), 128);
  EXPECT_EQ(viaTable(lut, 60000), 128);
  EXPECT_EQ(lut.map(101.7), 255);  // between entries: the entry below
  EXPECT_EQ(lut.map(-5.0), 0);

  // MONOCHROME1: the same table, inverted.
  info.photometric = "MONOCHROME1";
  const auto inverted = DisplayLut::build(info, ScalarType::UInt16, s);
  EXPECT_EQ(viaTable(inverted, 100), 255);
  EXPECT_EQ(viaTable(inverted, 101), 0);
  EXPECT_EQ(viaTable(inverted, 102), 127);

  // An index past the tables falls back to the window (LINEAR here: w = 1, c = 0).
  s.voiLut = 1;
  s.function.clear();
  const auto fallback = DisplayLut::build(monochrome(), ScalarType::UInt16, s);
  EXPECT_EQ(viaTable(fallback, 0), 255);  // x > c - 0.5
}

TEST(DisplayLut, Monochrome1AndInvert) {
  // MONOCHROME1: the window's low end is white, the high end black.
  const DisplaySettings s = window(2048, 4096);
  const auto m1 = DisplayLut::build(monochrome("MONOCHROME1"), ScalarType::UInt16, s);
  EXPECT_EQ(viaTable(m1, 0), 255);
  EXPECT_EQ(viaTable(m1, 2048), 127);  // 255 - 128
  EXPECT_EQ(viaTable(m1, 4095), 0);

  // The user's invert on MONOCHROME1 gives the plain MONOCHROME2 result.
  DisplaySettings flipped = s;
  flipped.invert = true;
  const auto both = DisplayLut::build(monochrome("MONOCHROME1"), ScalarType::UInt16, flipped);
  const auto plain = DisplayLut::build(monochrome("MONOCHROME2"), ScalarType::UInt16, s);
  EXPECT_TRUE(std::equal(both.table(), both.table() + both.size(), plain.table()));
  // And on MONOCHROME2 it gives the MONOCHROME1 result.
  const auto invertedPlain =
      DisplayLut::build(monochrome("MONOCHROME2"), ScalarType::UInt16, flipped);
  EXPECT_TRUE(std::equal(m1.table(), m1.table() + m1.size(), invertedPlain.table()));
}

TEST(DisplayLut, Int16UsesAnOffset) {
  // LINEAR c = -500, w = 1000: x <= -1000 -> 0; x > -1 -> 255; else ((x + 500.5) / 999 + 0.5) 255.
  const auto lut = DisplayLut::build(monochrome(), ScalarType::Int16, window(-500, 1000));
  EXPECT_EQ(lut.offset(), -32768);
  EXPECT_EQ(lut.size(), 65536u);
  EXPECT_EQ(lut.table()[0], 0);  // -32768
  EXPECT_EQ(viaTable(lut, -32768), 0);
  EXPECT_EQ(viaTable(lut, -1000), 0);
  EXPECT_EQ(viaTable(lut, -750), 64);   // 63.81
  EXPECT_EQ(viaTable(lut, -500), 128);  // 127.63
  EXPECT_EQ(viaTable(lut, -1), 255);
  EXPECT_EQ(viaTable(lut, 32767), 255);
  EXPECT_EQ(lut.table()[65535], 255);

  const auto int8 = DisplayLut::build(monochrome(), ScalarType::Int8, window(0, 256));
  EXPECT_EQ(int8.offset(), -128);
  EXPECT_EQ(int8.size(), 256u);
  EXPECT_EQ(viaTable(int8, -128), 0);  // x <= -0.5 - 127.5
  EXPECT_EQ(viaTable(int8, 127), 255);
}

TEST(DisplayLut, WideAndFloatTypesHaveNoTable) {
  for (ScalarType t :
       {ScalarType::Float32, ScalarType::Float64, ScalarType::Int32, ScalarType::UInt32}) {
    const auto lut = DisplayLut::build(monochrome("MONOCHROME1"), t, window(2048, 4096));
    EXPECT_FALSE(lut.hasTable());
    EXPECT_EQ(lut.table(), nullptr);
    EXPECT_EQ(lut.size(), 0u);
    EXPECT_EQ(lut.map(0), 255);
    EXPECT_EQ(lut.map(2048), 127);
    EXPECT_EQ(lut.map(1e9), 0);  // far outside the Int16..UInt16 span, not clamped to it
    EXPECT_EQ(lut.map(-1e9), 255);
    EXPECT_EQ(lut.map(std::numeric_limits<double>::quiet_NaN()), 255);  // as the lowest value
  }
}

TEST(DisplayLut, DefaultSettingsFollowTheFile) {
  ImageGeometry g;
  g.size = {2, 1, 1};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, 2);
  voxels->as<std::uint16_t>()[0] = 10;
  voxels->as<std::uint16_t>()[1] = 30;
  VolumeInfo info = monochrome();
  info.voiFunction = "SIGMOID";
  const auto range = defaultDisplaySettings(Volume(g, voxels, info));
  EXPECT_EQ(range.function, "SIGMOID");
  EXPECT_EQ(range.voiLut, -1);
  EXPECT_DOUBLE_EQ(range.center, 20);
  EXPECT_DOUBLE_EQ(range.width, 21);

  info.voiLuts.push_back({"Only", 0, 8, {0, 255}});
  EXPECT_EQ(defaultDisplaySettings(Volume(g, voxels, info)).voiLut, 0);

  // The loader's own additions after a file without a window do not hide the file's table.
  info.windows.push_back({"Auto", 20, 18});
  info.windows.push_back({"Full range", 20, 21});
  EXPECT_EQ(defaultDisplaySettings(Volume(g, voxels, info)).voiLut, 0);

  info.windows.insert(info.windows.begin(), {"File", 1000, 500});
  const auto fromFile = defaultDisplaySettings(Volume(g, voxels, info));
  EXPECT_EQ(fromFile.voiLut, -1);
  EXPECT_DOUBLE_EQ(fromFile.center, 1000);
  EXPECT_DOUBLE_EQ(fromFile.width, 500);
  EXPECT_FALSE(fromFile.invert);
}

TEST(DisplayLut, WholeTableEqualsTheFormulas) {
  // Every entry against the PS3.3 formulas written out here, and against map().
  auto round = [](double y) { return static_cast<int>(std::floor(y + 0.5)); };
  auto reference = [&](const std::string& f, double x, double c, double w) {
    if (f == "LINEAR_EXACT") {
      return x <= c - w / 2 ? 0 : x > c + w / 2 ? 255 : round(((x - c) / w + 0.5) * 255);
    }
    if (f == "SIGMOID") {
      return round(255 / (1 + std::exp(-4 * (x - c) / w)));
    }
    w = std::max(w, 1.0);
    return x <= c - 0.5 - (w - 1) / 2  ? 0
           : x > c - 0.5 + (w - 1) / 2 ? 255
                                       : round(((x - (c - 0.5)) / (w - 1) + 0.5) * 255);
  };
  const std::pair<double, double> windows[] = {{2048, 4096}, {-500, 1000}, {123.25, 77.5},
                                               {0, 2},       {30000, 1.5}, {-10, 200000},
                                               {40000, 3},   {7, 1e-3}};
  for (ScalarType type : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Int16}) {
    for (const char* f : {"LINEAR", "LINEAR_EXACT", "SIGMOID"}) {
      for (const auto& [c, w] : windows) {
        for (const char* photometric : {"MONOCHROME2", "MONOCHROME1"}) {
          const auto lut = DisplayLut::build(monochrome(photometric), type, window(c, w, f));
          const bool m1 = std::string(photometric) == "MONOCHROME1";
          int mismatches = 0;
          for (std::size_t i = 0; i < lut.size(); ++i) {
            const double x = static_cast<double>(lut.offset()) + static_cast<double>(i);
            const int expected = m1 ? 255 - reference(f, x, c, w) : reference(f, x, c, w);
            if (lut.table()[i] != expected || lut.map(x) != expected) {
              if (++mismatches < 4) {
                ADD_FAILURE() << f << " c " << c << " w " << w << " " << photometric << " x " << x
                              << ": table " << int(lut.table()[i]) << ", map " << int(lut.map(x))
                              << ", formula " << expected;
              }
            }
          }
          EXPECT_EQ(mismatches, 0);
        }
      }
    }
  }
}

TEST(DisplayLut, SixteenBitTableBuildsFast) {
  // Best of 11 builds per kind, so that a busy machine does not fail it.
  VolumeInfo info = monochrome("MONOCHROME1");
  info.voiLuts.push_back({"Ramp", 0, 16, std::vector<std::uint16_t>(4096, 1000)});
  for (const char* function : {"LINEAR", "LINEAR_EXACT", "SIGMOID", "table"}) {
    double best = 1e9;
    int sink = 0;
    for (int i = 0; i < 11; ++i) {
      DisplaySettings s = window(2048 + i, 30000, function);
      s.voiLut = std::string(function) == "table" ? 0 : -1;
      const auto start = std::chrono::steady_clock::now();
      const auto lut = DisplayLut::build(info, ScalarType::UInt16, s);
      const auto end = std::chrono::steady_clock::now();
      sink += lut.table()[2048];
      best = std::min(best, std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::printf("65536-entry DisplayLut build, %s: best %.3f ms (%d)\n", function, best, sink);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
    EXPECT_LT(best, 1.0) << function;
#endif
  }
}
