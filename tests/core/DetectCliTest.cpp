// `delineate-cli detect` on the built-in sample written as DICOM: it picks the current study's
// four views (also when the prior's folder is given too), labels its output a demonstration, and
// writes a findings file whose marks sit on the sample's ground truth, for MONOCHROME1 files too.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "RunCommand.h"
#include "SharedSample.h"
#include "TempDir.h"
#include "core/io/DicomHeader.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"

#ifdef DELINEATE_CLI

using namespace delineate::core;
using namespace delineate::core::mammo;

namespace {

// The sample's image name ("L_CC", ...) of each SOP Instance UID under `folder`.
std::map<std::string, std::string> namesByUid(const std::filesystem::path& folder) {
  std::map<std::string, std::string> names;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (entry.path().extension() == ".dcm") {
      std::string name = entry.path().stem().string();  // "L_CC0001"
      name.erase(name.find_last_not_of("0123456789") + 1);
      names[readDicomHeader(entry.path().string()).sopInstanceUid] = name;
    }
  }
  return names;
}

// Centroid (column, row) of ground-truth label `value` of a sample view.
std::pair<double, double> truth(const std::string& laterality, const std::string& view,
                                std::uint16_t value) {
  const sample::SampleCase c = sample::makeMammogram(sample::kDefaultSeed, laterality, view, false);
  const auto& g = c.labels->geometry();
  double sc = 0, sr = 0, n = 0;
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    if (c.labels->data<std::uint16_t>()[i] == value) {
      sc += double(i % g.size[0]), sr += double(i / g.size[0]), n += 1;
    }
  }
  return {sc / n, sr / n};
}

// The findings of the current study under `dir`'s folders, checked against the ground truth.
void expectFindingsOnTheTruth(const StudyFindings& f, const std::filesystem::path& folder) {
  EXPECT_TRUE(f.demonstration);
  ASSERT_TRUE(f.riskScore);
  ASSERT_EQ(f.images.size(), 4u);
  const auto names = namesByUid(folder);
  std::map<std::string, const ImageFindings*> byName;
  for (const ImageFindings& image : f.images) {
    ASSERT_TRUE(names.count(image.imageId)) << image.imageId << " is no image of " << folder;
    byName[names.at(image.imageId)] = &image;
    EXPECT_TRUE(image.heatmap);
  }
  for (const char* view : {"CC", "MLO"}) {
    const ImageFindings* left = byName[std::string("L_") + view];
    ASSERT_NE(left, nullptr) << view;
    const auto mass = std::find_if(left->marks.begin(), left->marks.end(),
                                   [](const FindingMark& m) { return m.kind == "mass"; });
    ASSERT_NE(mass, left->marks.end()) << view;
    const auto t = truth("L", view, 1);
    EXPECT_LT(std::hypot(mass->column - t.first, mass->row - t.second) * 0.13, 10.0) << view;

    const ImageFindings* right = byName[std::string("R_") + view];
    ASSERT_NE(right, nullptr) << view;
    const auto c = truth("R", view, 2);
    EXPECT_TRUE(std::any_of(right->marks.begin(), right->marks.end(), [&](const FindingMark& m) {
      return m.kind == "calcification" &&
             std::hypot(m.column - c.first, m.row - c.second) * 0.13 < 8.0;
    })) << view;
  }
}

}  // namespace

TEST(DetectCli, TheSampleStudyGetsDemonstrationFindings) {
  delineate::test::TempDir dir;
  const std::filesystem::path sample = delineate::test::sharedSample();
  const std::string cli = DELINEATE_CLI;
  const auto current = sample / "mammo/screening-2026";
  std::string out;
  ASSERT_EQ(delineate::test::runCommand(cli + " detect --json " + (dir / "f.json").string() + " " +
                                            current.string() + " " +
                                            (sample / "mammo/screening-2024").string(),
                                        &out),
            0)
      << out;
  EXPECT_NE(out.find("DEMONSTRATION, NOT A DIAGNOSIS"), std::string::npos) << out;
  EXPECT_NE(out.find("risk score"), std::string::npos) << out;
  EXPECT_NE(out.find("mass"), std::string::npos) << out;
  EXPECT_NE(out.find(" mm"), std::string::npos) << out;
  expectFindingsOnTheTruth(readStudyFindings(dir / "f.json"), current);
  // The sample's own findings file is this detector's output (images in another order).
  const StudyFindings own = readStudyFindings(current / "ai-findings.json");
  const StudyFindings fromCli = readStudyFindings(dir / "f.json");
  ASSERT_TRUE(own.riskScore && fromCli.riskScore);
  EXPECT_NEAR(*own.riskScore, *fromCli.riskScore, 1e-9);
  const auto byImage = [](const StudyFindings& f) {
    std::map<std::string, std::string> marks;
    const nlohmann::json j = toJson(f);  // kept: the loop walks into it
    for (const auto& image : j["images"]) {
      marks[image["imageId"].get<std::string>()] = image["marks"].dump();
    }
    return marks;
  };
  EXPECT_TRUE(byImage(own) == byImage(fromCli));

  // The same images stored as MONOCHROME1.
  const auto inverted = sample / "mammo/screening-2026-monochrome1";
  ASSERT_EQ(
      delineate::test::runCommand(
          cli + " detect --json " + (dir / "m1.json").string() + " " + inverted.string(), &out),
      0)
      << out;
  expectFindingsOnTheTruth(readStudyFindings(dir / "m1.json"), inverted);

  // Nothing to examine, and bad arguments.
  std::filesystem::create_directories(dir / "empty");
  EXPECT_EQ(delineate::test::runCommand(cli + " detect " + (dir / "empty").string()), 1);
  EXPECT_EQ(delineate::test::runCommand(cli + " detect"), 2);
  EXPECT_EQ(delineate::test::runCommand(cli + " detect --bogus x"), 2);
}

#endif
