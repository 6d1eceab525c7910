// Our metrics against `plastimatch dice --all` (Debian package plastimatch) on the same masks,
// written as NRRD files: its voxel counts exactly, its Dice within 1e-6, its boundary Hausdorff
// distances within one voxel diagonal. plastimatch compares binary masks, so each label is
// written as its own 0/1 file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "MetricsTestSupport.h"
#include "TempDir.h"
#include "core/io/VolumeFileIO.h"
#include "core/metrics/LabelComparison.h"

using namespace delineate::core;
using delineate::test::metricsGrid;
using delineate::test::paintBall;
using delineate::test::paintBox;

namespace {

const char* kPlastimatch = "/usr/bin/plastimatch";

void writeMask(const LabelMap& map, std::uint16_t label, const std::filesystem::path& path) {
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt8, map.voxelCount());
  for (std::size_t n = 0; n < map.voxelCount(); ++n) {
    voxels->as<std::uint8_t>()[n] = map.data()[n] == label ? 1 : 0;
  }
  writeVolumeFile(Volume(map.geometry(), voxels, {}), path, false);
}

std::string run(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) {
      out.append(buf, n);
    }
    ::pclose(p);
  }
  return out;
}

// "KEY: value" and "Some name = value" lines of plastimatch's report.
std::map<std::string, double> parseReport(const std::string& text) {
  std::map<std::string, double> values;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::size_t sep = line.find(" = ");
    std::size_t skip = 3;
    if (sep == std::string::npos) {
      sep = line.find(':');
      skip = 1;
    }
    if (sep == std::string::npos) {
      continue;
    }
    try {
      values[line.substr(0, sep)] = std::stod(line.substr(sep + skip));
    } catch (const std::exception&) {
    }
  }
  return values;
}

}  // namespace

TEST(MetricsPlastimatch, CountsDiceAndBoundaryHausdorffAgree) {
  if (!std::filesystem::exists(kPlastimatch)) {
    GTEST_SKIP() << kPlastimatch << " is not installed (Debian package plastimatch)";
  }
  const ImageGeometry g = metricsGrid({64, 56, 40}, {0.9, 0.8, 1.5});
  LabelMap ref("ref", g), test("test", g);
  paintBall(ref, {20, 22, 14}, 9.0, 1);
  paintBall(test, {23, 20, 16}, 8.0, 1);
  paintBox(ref, {36, 8, 20}, {52, 24, 32}, 2);
  paintBox(test, {38, 10, 21}, {55, 25, 33}, 2);
  std::mt19937 rng(9);
  for (int b = 0; b < 3; ++b) {  // irregular shapes for label 3
    std::uniform_real_distribution<double> u(0.0, 1.0);
    paintBall(ref, {14 + 30 * u(rng), 30 + 14 * u(rng), 24 + 6 * u(rng)}, 4 + 3 * u(rng), 3);
    paintBall(test, {14 + 30 * u(rng), 30 + 14 * u(rng), 24 + 6 * u(rng)}, 4 + 3 * u(rng), 3);
  }
  NullProgress progress;
  const auto rows = compareLabelMaps(ref, test, {}, progress);
  ASSERT_EQ(rows.size(), 3u);
  const double diagonal = std::sqrt(0.9 * 0.9 + 0.8 * 0.8 + 1.5 * 1.5);

  const delineate::test::TempDir dir;
  for (const LabelMetrics& m : rows) {
    const auto a = dir / ("ref" + std::to_string(m.label) + ".nrrd");
    const auto b = dir / ("test" + std::to_string(m.label) + ".nrrd");
    writeMask(ref, m.label, a);
    writeMask(test, m.label, b);
    const std::string report =
        run(std::string(kPlastimatch) + " dice --all " + a.string() + " " + b.string() + " 2>&1");
    auto v = parseReport(report);
    ASSERT_TRUE(v.count("TP") && v.count("DICE") && v.count("Hausdorff distance (boundary)"))
        << report;
    EXPECT_EQ(v["TP"], double(m.counts.both)) << report;
    EXPECT_EQ(v["FP"], double(m.counts.falsePositives())) << report;
    EXPECT_EQ(v["FN"], double(m.counts.falseNegatives())) << report;
    // Printed with 6 decimals: our Dice, rounded the same way, is within 1e-6.
    EXPECT_NEAR(v["DICE"], m.overlap.dice, 1e-6) << report;
    EXPECT_NEAR(v["SE"], m.overlap.sensitivity, 1e-6) << report;
    const SurfaceDistanceResult& s = *m.surface;
    // plastimatch: max of both directed maxima, over boundary voxels, like ours.
    EXPECT_NEAR(v["Hausdorff distance (boundary)"], s.hausdorffMm, diagonal) << report;
    EXPECT_NEAR(v["Hausdorff distance (boundary)"], s.hausdorffMm, 1e-4) << report;
    // plastimatch's averages: the mean and the larger of the two directed means (ASSD pools
    // both directions instead).
    EXPECT_NEAR(v["Avg average Hausdorff distance (boundary)"],
                0.5 * (s.referenceToTest.meanMm + s.testToReference.meanMm), diagonal)
        << report;
    EXPECT_NEAR(v["Max average Hausdorff distance (boundary)"],
                std::max(s.referenceToTest.meanMm, s.testToReference.meanMm), diagonal)
        << report;
    // plastimatch's percentile is the mean of the two directed ones, each taken at rank
    // floor(0.95 n - 1) without interpolation: within a voxel diagonal of our pair's mean.
    EXPECT_NEAR(v["Percent (0.95) Hausdorff distance (boundary)"],
                0.5 * (s.referenceToTest.percentileMm + s.testToReference.percentileMm), diagonal)
        << report;
  }
}
