// The built-in demonstration detector on the synthetic screening exams (core/sample): the mass of
// the left breast and the calcification cluster of the right breast are marked where the ground
// truth has them, the prior exam (smaller mass, no calcifications) scores lower, an image
// without structure gives nothing, and a cancelled run stops.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <map>

#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"

using namespace delineate::core;
using namespace delineate::core::mammo;

namespace {

constexpr double kPixelMm = 0.13;  // the sample's pixel spacing

struct Exam {
  std::vector<sample::SampleCase> cases;  // R CC, L CC, R MLO, L MLO
  std::vector<DetectorImage> inputs;
  StudyFindings findings;
  double seconds = 0;
};

const Exam& exam(bool prior, std::uint64_t seed = sample::kDefaultSeed) {
  static std::map<std::pair<bool, std::uint64_t>, Exam> cache;
  const auto key = std::make_pair(prior, seed);
  if (const auto it = cache.find(key); it != cache.end()) {
    return it->second;
  }
  Exam e;
  const char* views[4][2] = {{"R", "CC"}, {"L", "CC"}, {"R", "MLO"}, {"L", "MLO"}};
  for (const auto& v : views) {
    e.cases.push_back(sample::makeMammogram(seed, v[0], v[1], prior));
    MammoView view;
    view.id = e.cases.back().name;
    view.laterality = parseLaterality(v[0]);
    view.view = parseViewCode(v[1]);
    e.inputs.push_back({e.cases.back().image, view});
  }
  NullProgress progress;
  const auto start = std::chrono::steady_clock::now();
  e.findings = DemoMammoDetector().run(e.inputs, progress);
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return cache[key] = std::move(e);
}

// Centroid (column, row) of the ground-truth label `value`.
std::pair<double, double> centroid(const sample::SampleCase& c, std::uint16_t value) {
  const auto& g = c.labels->geometry();
  const auto* labels = c.labels->data<std::uint16_t>();
  double sc = 0, sr = 0, n = 0;
  for (std::size_t r = 0; r < g.size[1]; ++r) {
    for (std::size_t col = 0; col < g.size[0]; ++col) {
      if (labels[r * g.size[0] + col] == value) {
        sc += double(col), sr += double(r), n += 1;
      }
    }
  }
  EXPECT_GT(n, 0) << c.name << " has no label " << value;
  return {sc / n, sr / n};
}

double distanceMm(const FindingMark& m, std::pair<double, double> p) {
  return std::hypot(m.column - p.first, m.row - p.second) * kPixelMm;
}

std::vector<FindingMark> marksOf(const ImageFindings& image, const std::string& kind) {
  std::vector<FindingMark> out;
  for (const FindingMark& m : image.marks) {
    if (m.kind == kind) {
      out.push_back(m);
    }
  }
  return out;
}

std::string describe(const ImageFindings& image) {
  std::string s = image.imageId + ":";
  for (const FindingMark& m : image.marks) {
    s += " " + m.kind + "@(" + std::to_string(int(m.column)) + "," + std::to_string(int(m.row)) +
         ")=" + std::to_string(m.score).substr(0, 4);
  }
  return s;
}

VolumePtr uniformImage(std::uint16_t value) {
  ImageGeometry g;
  g.size = {640, 832, 1};
  g.spacing = {0.13, 0.13, 1};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, g.voxelCount());
  std::fill(voxels->as<std::uint16_t>(), voxels->as<std::uint16_t>() + g.voxelCount(), value);
  return std::make_shared<const Volume>(g, voxels, VolumeInfo{});
}

// A sink that cancels its job at the `after`-th report.
class CancelAfter : public ProgressSink {
 public:
  explicit CancelAfter(int after) : left_(after) {}
  void report(double, std::string_view) override { --left_; }
  bool cancelled() const override { return left_ <= 0; }

 private:
  int left_;
};

}  // namespace

TEST(DemoMammoDetector, MarksTheMassOfEachLeftView) {
  const Exam& e = exam(false);
  for (const std::size_t i : {1u, 3u}) {  // L CC, L MLO
    const ImageFindings& image = e.findings.images[i];
    const auto masses = marksOf(image, "mass");
    ASSERT_FALSE(masses.empty()) << describe(image);
    EXPECT_LT(distanceMm(masses.front(), centroid(e.cases[i], 1)), 10.0) << describe(image);
  }
}

TEST(DemoMammoDetector, MarksTheCalcificationClusterOfEachRightView) {
  const Exam& e = exam(false);
  for (const std::size_t i : {0u, 2u}) {  // R CC, R MLO
    const ImageFindings& image = e.findings.images[i];
    const auto calcs = marksOf(image, "calcification");
    ASSERT_FALSE(calcs.empty()) << describe(image);
    const auto truth = centroid(e.cases[i], 2);
    const bool near = std::any_of(calcs.begin(), calcs.end(),
                                  [&](const FindingMark& m) { return distanceMm(m, truth) < 8.0; });
    EXPECT_TRUE(near) << describe(image);
    // The box holds the cluster.
    EXPECT_LE(calcs.front().x0, calcs.front().column);
    EXPECT_GE(calcs.front().x1, calcs.front().column);
  }
}

TEST(DemoMammoDetector, ThePriorExamHasNoCalcificationMark) {
  const Exam& e = exam(true);
  for (const std::size_t i : {0u, 2u}) {
    EXPECT_TRUE(marksOf(e.findings.images[i], "calcification").empty())
        << describe(e.findings.images[i]);
  }
  // Nor does the left breast of either exam.
  for (const std::size_t i : {1u, 3u}) {
    EXPECT_TRUE(marksOf(exam(false).findings.images[i], "calcification").empty())
        << describe(exam(false).findings.images[i]);
  }
}

TEST(DemoMammoDetector, TheCurrentExamScoresHigherThanThePrior) {
  const Exam& current = exam(false);
  const Exam& prior = exam(true);
  ASSERT_TRUE(current.findings.riskScore && prior.findings.riskScore);
  EXPECT_GT(*current.findings.riskScore, *prior.findings.riskScore);
  EXPECT_LE(*current.findings.riskScore, 1.0);
  EXPECT_GE(*prior.findings.riskScore, 0.0);
}

TEST(DemoMammoDetector, FindingsAreFlaggedAsADemonstrationWithAHeatmapPerImage) {
  const Exam& e = exam(false);
  const StudyFindings& f = e.findings;
  EXPECT_TRUE(f.demonstration);
  EXPECT_EQ(f.source, kDemoDetectorSource);
  ASSERT_EQ(f.images.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const ImageFindings& image = f.images[i];
    EXPECT_EQ(image.imageId, e.cases[i].name);
    for (std::size_t k = 0; k < image.marks.size(); ++k) {
      const FindingMark& m = image.marks[k];
      EXPECT_GE(m.score, DemoMammoDetector::Options{}.markThreshold);
      EXPECT_LE(m.score, 1.0);
      EXPECT_TRUE(m.x0 <= m.column && m.column <= m.x1 && m.y0 <= m.row && m.row <= m.y1);
      if (k > 0) {
        EXPECT_GE(image.marks[k - 1].score, m.score) << "marks sorted by score";
      }
    }
    ASSERT_TRUE(image.heatmap);
    const FindingHeatmap& h = *image.heatmap;
    EXPECT_EQ(h.step, 8.0);
    EXPECT_EQ(h.columns, 1280u / 8);
    EXPECT_EQ(h.rows, 1664u / 8);
    ASSERT_EQ(h.values.size(), h.columns * h.rows);
    EXPECT_TRUE(std::all_of(h.values.begin(), h.values.end(),
                            [](float v) { return v >= 0.0f && v <= 1.0f; }));
    // The heatmap is hot under the best mark.
    ASSERT_FALSE(image.marks.empty()) << describe(image);
    const FindingMark& best = image.marks.front();
    const auto c = std::size_t(best.column / h.step), r = std::size_t(best.row / h.step);
    EXPECT_GE(h.values[r * h.columns + c], float(best.score) - 1e-6f);
  }
  std::printf("demonstration detector: 4 views of 1280x1664 in %.3f s\n", e.seconds);
}

TEST(DemoMammoDetector, TheSameMassIsFoundInAMonochrome1Image) {
  const Exam& e = exam(false);
  const Volume& original = *e.cases[1].image;  // L CC
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, original.voxels().count());
  for (std::size_t i = 0; i < voxels->count(); ++i) {
    voxels->as<std::uint16_t>()[i] = std::uint16_t(4095 - original.data<std::uint16_t>()[i]);
  }
  VolumeInfo info = original.info();
  info.photometric = "MONOCHROME1";
  const auto inverted = std::make_shared<const Volume>(original.geometry(), voxels, info);
  NullProgress progress;
  const StudyFindings f = DemoMammoDetector().run({{inverted, e.inputs[1].view}}, progress);
  const auto masses = marksOf(f.images[0], "mass");
  ASSERT_FALSE(masses.empty()) << describe(f.images[0]);
  EXPECT_LT(distanceMm(masses.front(), centroid(e.cases[1], 1)), 10.0) << describe(f.images[0]);
  EXPECT_TRUE(marksOf(f.images[0], "asymmetry").empty()) << "no other breast to compare with";
}

TEST(DemoMammoDetector, AUniformImageGivesNoMarks) {
  MammoView l, r;
  l.id = "left";
  l.laterality = Laterality::Left;
  l.view = ViewCode::CC;
  r = l;
  r.id = "right";
  r.laterality = Laterality::Right;
  NullProgress progress;
  const StudyFindings f =
      DemoMammoDetector().run({{uniformImage(1000), l}, {uniformImage(0), r}}, progress);
  ASSERT_EQ(f.images.size(), 2u);
  for (const ImageFindings& image : f.images) {
    EXPECT_TRUE(image.marks.empty()) << describe(image);
    ASSERT_TRUE(image.heatmap);
    EXPECT_TRUE(std::all_of(image.heatmap->values.begin(), image.heatmap->values.end(),
                            [](float v) { return v == 0.0f; }));
  }
  EXPECT_EQ(f.riskScore, 0.0);
}

TEST(DemoMammoDetector, AVolumeWithSlicesIsRefused) {
  ImageGeometry g;
  g.size = {16, 16, 2};
  const auto v = std::make_shared<const Volume>(
      g, std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount()), VolumeInfo{});
  NullProgress progress;
  EXPECT_THROW(DemoMammoDetector().run({{v, MammoView{}}}, progress), Error);
}

TEST(DemoMammoDetector, CancellingStopsTheRun) {
  const Exam& e = exam(false);
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(DemoMammoDetector().run(e.inputs, cancelled), CancelledError);
  // Cancelled while it works on the second image.
  CancelAfter midway(6);
  EXPECT_THROW(DemoMammoDetector().run(e.inputs, midway), CancelledError);
}
