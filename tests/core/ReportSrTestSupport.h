#pragma once
// Shared helpers of the DICOM SR report tests: dciodvfy's errors and warnings for a file, a small
// four-view mammography study written as DICOM, and the reports the mammography SR tests write
// (a signed one with addenda, an unsigned AI draft with findings in both breasts).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "DicomTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomHeader.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReport.h"

namespace delineate::test {

struct DciodvfyResult {
  std::string output;
  std::vector<std::string> errors;    // lines starting with "Error"
  std::vector<std::string> warnings;  // lines starting with "Warning"
};

inline bool haveDciodvfy() {
  return std::filesystem::exists("/usr/bin/dciodvfy");
}

// dciodvfy's output for `file`, its "Error" and "Warning" lines.
inline DciodvfyResult dciodvfy(const std::filesystem::path& file) {
  DciodvfyResult r;
  const std::string command = "/usr/bin/dciodvfy '" + file.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  if (!pipe) {
    return r;
  }
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    r.output += line;
    if (std::strncmp(line, "Error", 5) == 0) {
      r.errors.push_back(line);
    } else if (std::strncmp(line, "Warning", 7) == 0) {
      r.warnings.push_back(line);
    }
  }
  ::pclose(pipe);
  return r;
}

// One view of the study as written.
struct MammoViewFile {
  std::filesystem::path path;
  std::string sopInstanceUid;
  core::mammo::Laterality laterality;
  core::mammo::ViewCode view;
};

inline constexpr const char* kMammoStudyUid = "1.2.826.0.1.3680043.10.1234.7";

// R CC, R MLO, L CC, L MLO: one small MG image each (16 x 20 pixels, own series) in one study.
inline std::vector<MammoViewFile> writeMammoStudy(const std::filesystem::path& folder) {
  using core::mammo::Laterality;
  using core::mammo::ViewCode;
  const struct {
    Laterality side;
    ViewCode view;
    const char* name;
  } views[] = {{Laterality::Right, ViewCode::CC, "RCC"},
               {Laterality::Right, ViewCode::MLO, "RMLO"},
               {Laterality::Left, ViewCode::CC, "LCC"},
               {Laterality::Left, ViewCode::MLO, "LMLO"}};
  std::vector<MammoViewFile> files;
  int n = 0;
  for (const auto& v : views) {
    core::VolumeInfo info = fixedInfo("MG");
    info.patientName = "Doe^Jane";
    info.patientId = "P123";
    info.patientSex = "F";
    info.studyInstanceUid = kMammoStudyUid;
    info.seriesInstanceUid = std::string(kMammoStudyUid) + "." + std::to_string(++n);
    info.seriesNumber = n;
    core::ImageGeometry g;
    g.size = {16, 20, 1};
    g.spacing = {0.1, 0.1, 1};
    const auto image = makeVolume(core::ScalarType::UInt16, g, info,
                                  [](std::size_t i, std::size_t j, std::size_t) {
                                    return static_cast<double>(100 + i + 3 * j);
                                  });
    const auto written =
        writeSeries(*image, folder / v.name, core::DicomTransferSyntax::ExplicitLittleEndian,
                    {{"ImageLaterality", v.side == Laterality::Right ? "R" : "L"},
                     {"ViewPosition", core::mammo::toString(v.view)}});
    EXPECT_EQ(written.size(), 1u);
    const core::DicomFileHeader h = core::readDicomHeader(written.front().string());
    files.push_back({written.front(), h.sopInstanceUid, v.side, v.view});
  }
  return files;
}

inline std::vector<std::filesystem::path> pathsOf(const std::vector<MammoViewFile>& views) {
  std::vector<std::filesystem::path> paths;
  for (const MammoViewFile& v : views) {
    paths.push_back(v.path);
  }
  return paths;
}

// A suite whose tests share one four-view study (writeMammoStudy), written once per suite into a
// folder of its own (dir() / "study"), removed after the suite.
class MammoStudySuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new TempDir();
    views_ = new std::vector<MammoViewFile>(writeMammoStudy(folder_->path() / "study"));
  }
  static void TearDownTestSuite() {
    delete views_;
    delete folder_;
    views_ = nullptr;
    folder_ = nullptr;
  }
  static const std::vector<MammoViewFile>& views() { return *views_; }
  static std::filesystem::path dir() { return folder_->path(); }

  inline static TempDir* folder_ = nullptr;
  inline static std::vector<MammoViewFile>* views_ = nullptr;
};

inline core::report::ReportSubject mammoSubject() {
  return {"Doe^Jane", "P123", "19650412", kMammoStudyUid, "ACC7"};
}

// Signed, with two addenda (one by a signer with a non-ASCII name): a left mass with all mass
// descriptors (linked to the L CC view by SOP Instance UID), right calcifications (linked to the
// R MLO view by its path) and an "other" finding without a code.
inline core::report::MammographyReport signedMammoReport(const std::vector<MammoViewFile>& views) {
  using namespace core::report;
  MammographyReport r;
  r.setSubject(mammoSubject());
  r.edit("reader", "2024-05-02T09:00:00Z", [&](MammographyContent& c) {
    c.composition.set(BreastComposition::C);
    MammoFinding& mass = c.addFinding();
    mass.kind.set(FindingKind::Mass);
    mass.description.set("Irregular spiculated mass");
    mass.laterality.set(core::mammo::Laterality::Left);
    mass.clockPosition.set(2);
    mass.depth.set(Depth::Middle);
    mass.sizeMm.set(12.345678901234);
    mass.massShape.set(MassShape::Irregular);
    mass.massMargin.set(MassMargin::Spiculated);
    mass.massDensity.set(MassDensity::High);
    mass.link = ReportLink::cadMark(views[2].sopInstanceUid, 0);
    mass.view = core::mammo::ViewCode::CC;
    mass.aiScore = 0.8125;
    MammoFinding& calc = c.addFinding();
    calc.kind.set(FindingKind::Calcification);
    calc.laterality.set(core::mammo::Laterality::Right);
    calc.clockPosition.set(10);
    calc.depth.set(Depth::Posterior);
    calc.sizeMm.set(4.2);
    calc.calcificationMorphology.set(CalcificationMorphology::FinePleomorphic);
    calc.calcificationDistribution.set(CalcificationDistribution::Grouped);
    calc.link = ReportLink::cadMark(views[1].path.string(), 1);
    MammoFinding& other = c.addFinding();
    other.kind.set(FindingKind::Other);
    other.description.set("Skin mole, right breast");
    other.laterality.set(core::mammo::Laterality::Right);
    c.assessmentRight.set(AssessmentCategory::Suspicious);
    c.assessmentLeft.set(AssessmentCategory::HighlySuggestive);
    c.assessmentOverall.set(AssessmentCategory::HighlySuggestive);
    c.management.set("Tissue diagnosis");
    c.impression.set("Left breast mass highly suggestive of malignancy.");
  });
  r.sign("Dr Jane Reader", "2024-05-02T09:30:00Z");
  r.addAddendum("Compared with prior: new since 2022.", "Dr Jane Reader", "2024-05-03T08:00:00Z");
  r.addAddendum("Biopsy scheduled.", "Dr \xC3\x89mile Second", "2024-05-04T10:15:30Z");
  return r;
}

// An unsigned AI draft (demonstration detector, case score 0.62): calcifications on R CC and R
// MLO, a mass on L CC and L MLO (same lesion in both views, so they get clock positions), the
// mass on L CC given descriptors by the reader; every other field still the AI's proposal.
inline core::report::MammographyReport aiDraftedMammoReport(
    const std::vector<MammoViewFile>& views) {
  using namespace core::report;
  core::mammo::StudyFindings f;
  f.source = "Built-in demonstration detector (not a diagnosis)";
  f.demonstration = true;
  f.riskScore = 0.62;
  f.images.push_back(
      {views[0].sopInstanceUid, {{"calcification", 500, 1400, 480, 1380, 520, 1420, 0.35}}, {}});
  f.images.push_back(
      {views[1].sopInstanceUid, {{"calcifications", 520, 1500, 500, 1480, 540, 1520, 0.3}}, {}});
  f.images.push_back(
      {views[2].sopInstanceUid, {{"mass", 1600, 950, 1550, 910, 1650, 990, 0.81}}, {}});
  f.images.push_back(
      {views[3].sopInstanceUid, {{"mass", 1550, 1080, 1520, 1050, 1580, 1110, 0.74}}, {}});
  std::vector<ImageFacts> facts;
  for (const MammoViewFile& v : views) {
    ImageFacts x;
    x.imageId = v.sopInstanceUid;
    x.view.id = v.sopInstanceUid;
    x.view.laterality = v.laterality;
    x.view.view = v.view;
    x.columns = 2000;
    x.rows = 2500;
    x.spacingMm = 0.1;
    x.chestWall = v.laterality == core::mammo::Laterality::Left ? core::mammo::ChestWall::Left
                                                                : core::mammo::ChestWall::Right;
    facts.push_back(x);
  }
  MammographyReport r = draftFromFindings(f, facts);
  r.setSubject(mammoSubject());
  r.edit("reader", "2024-05-02T09:10:00Z", [](MammographyContent& c) {
    for (MammoFinding& x : c.findings) {
      if (x.kind.value() == FindingKind::Mass && x.view == core::mammo::ViewCode::CC) {
        x.massShape.set(MassShape::Oval);
        x.massMargin.set(MassMargin::Circumscribed);
        x.massDensity.set(MassDensity::Equal);
      }
    }
  });
  return r;
}

}  // namespace delineate::test
