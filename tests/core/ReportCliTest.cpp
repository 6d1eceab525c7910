// The sample reports `delineate-cli sample` writes, and `delineate-cli report show|export` on
// them: the AI-drafted mammography report's findings sit on the demonstration detector's marks
// of the sample study, the measurement report holds the brain MR's measured segments, and the
// exports read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "RunCommand.h"
#include "SharedSample.h"
#include "TempDir.h"
#include "core/io/DicomHeader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/measure/SegmentMeasurements.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/MeasurementReportSr.h"
#include "core/report/ReportFile.h"

#ifdef DELINEATE_CLI

namespace fs = std::filesystem;
using namespace delineate::core;
using namespace delineate::core::report;
using delineate::test::runCommand;

namespace {

class ReportCli : public ::testing::Test {
 protected:
  static fs::path root() {
    static const fs::path sample = delineate::test::sharedSample();
    return sample;
  }
  static std::string cli() { return DELINEATE_CLI; }
  static fs::path mammoReport() { return root() / "reports/screening-2026-mammography.json"; }
  static fs::path measurementReport() { return root() / "reports/brain-mr-measurements.json"; }
};

int dciodvfyErrors(const fs::path& file, std::string& output) {
  runCommand("/usr/bin/dciodvfy '" + file.string() + "'", &output);
  int errors = 0;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    errors += line.rfind("Error", 0) == 0;
  }
  return errors;
}

}  // namespace

TEST_F(ReportCli, SampleMammographyReportIsTheDetectorsDraft) {
  const auto report = std::get<MammographyReport>(readReport(mammoReport()));
  ASSERT_TRUE(report.aiOrigin());
  EXPECT_TRUE(report.aiOrigin()->demonstration);
  EXPECT_FALSE(report.subject().patientId.empty());
  ASSERT_TRUE(report.content().impression.value());
  EXPECT_EQ(report.content().impression.value()->rfind(kDemonstrationNotice, 0), 0u);
  EXPECT_EQ(report.content().assessmentOverall.provenance(), Provenance::AiProposed);

  // Every finding links to a mark of the study's findings file; the sample's mass is in the
  // left breast, its calcifications in the right.
  const mammo::StudyFindings findings =
      mammo::readStudyFindings(root() / "mammo/screening-2026/ai-findings.json");
  bool leftMass = false, rightCalcification = false;
  for (const MammoFinding& f : report.content().findings) {
    const auto image =
        std::find_if(findings.images.begin(), findings.images.end(),
                     [&](const mammo::ImageFindings& i) { return i.imageId == f.link.imageId; });
    ASSERT_NE(image, findings.images.end()) << findingName(f.id);
    ASSERT_LT(f.link.markIndex, int(image->marks.size()));
    ASSERT_TRUE(f.kind.value() && f.laterality.value());
    leftMass |=
        *f.kind.value() == FindingKind::Mass && *f.laterality.value() == mammo::Laterality::Left;
    rightCalcification |= *f.kind.value() == FindingKind::Calcification &&
                          *f.laterality.value() == mammo::Laterality::Right;
  }
  EXPECT_TRUE(leftMass);
  EXPECT_TRUE(rightCalcification);
  const auto missing = report.missingForSignature();
  EXPECT_NE(std::find(missing.begin(), missing.end(), "breast composition"), missing.end());
}

TEST_F(ReportCli, SampleMeasurementReportHoldsTheMeasuredSegments) {
  const auto report = std::get<MeasurementReport>(readReport(measurementReport()));
  const LabelMap labels = readLabelMapFiles(root() / "brain-mr/brain-mr_labels.nii.gz");
  NullProgress quiet;
  const VolumePtr image = readVolumeFile(root() / "brain-mr/brain-mr.nii.gz", quiet);
  const auto measured = measureSegments(labels, image.get(), quiet);
  ASSERT_EQ(report.rows().size(), measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    EXPECT_EQ(report.rows()[i].name, measured[i].name);
    EXPECT_EQ(report.rows()[i].link.labelMap, labels.name());
    EXPECT_DOUBLE_EQ(report.rows()[i].volumeMl, measured[i].volumeMl);
    ASSERT_TRUE(report.rows()[i].mean);
    EXPECT_NEAR(*report.rows()[i].mean, measured[i].mean, 1e-6 * std::abs(measured[i].mean));
  }
  EXPECT_EQ(report.missingForSignature(), std::vector<std::string>{"impression"});
}

TEST_F(ReportCli, ShowPrintsProvenanceAndWhatSigningLacks) {
  std::string out;
  ASSERT_EQ(runCommand(cli() + " report show " + mammoReport().string(), &out), 0) << out;
  EXPECT_NE(out.find("DEMONSTRATION, NOT A DIAGNOSIS"), std::string::npos) << out;
  EXPECT_NE(out.find("assessment/overall"), std::string::npos) << out;
  EXPECT_NE(out.find("[ai-proposed]"), std::string::npos) << out;
  EXPECT_NE(out.find("missing for signing"), std::string::npos) << out;
  ASSERT_EQ(runCommand(cli() + " report show " + measurementReport().string(), &out), 0) << out;
  EXPECT_NE(out.find("Left hippocampus head"), std::string::npos) << out;
  EXPECT_NE(out.find("- impression"), std::string::npos) << out;
}

TEST_F(ReportCli, ExportsJsonThatReadsBackEqual) {
  delineate::test::TempDir out;
  for (const fs::path& report : {mammoReport(), measurementReport()}) {
    const fs::path copy = out / report.filename();
    std::string text;
    ASSERT_EQ(runCommand(cli() + " report export " + report.string() + " --format json --out " +
                             copy.string(),
                         &text),
              0)
        << text;
    EXPECT_TRUE(readReport(copy) == readReport(report)) << report;
  }
}

TEST_F(ReportCli, ExportsTheMeasurementReportAsSrReferringToTheSeg) {
  delineate::test::TempDir out;
  const fs::path seg = out / "seg.dcm", sr = out / "sr.dcm";
  const fs::path dicom = root() / "brain-mr/dicom";
  const fs::path labelFile = root() / "brain-mr/brain-mr_labels.nii.gz";
  std::string text;
  ASSERT_EQ(runCommand(cli() + " seg export --image " + dicom.string() + " --label " +
                           labelFile.string() + " --out " + seg.string(),
                       &text),
            0)
      << text;
  ASSERT_EQ(runCommand(cli() + " report export " + measurementReport().string() +
                           " --format sr --out " + sr.string() + " --image " + dicom.string() +
                           " --labels " + labelFile.string() + " --seg " + seg.string(),
                       &text),
            0)
      << text;
  const auto report = std::get<MeasurementReport>(readReport(measurementReport()));
  const MeasurementReportSrContent content = readMeasurementReportSr(sr);
  ASSERT_EQ(content.groups.size(), report.rows().size());
  const std::string segUid = readDicomHeader(seg.string()).sopInstanceUid;
  for (std::size_t i = 0; i < content.groups.size(); ++i) {
    EXPECT_EQ(content.groups[i].trackingId, report.rows()[i].name);
    ASSERT_TRUE(content.groups[i].volume);
    EXPECT_DOUBLE_EQ(content.groups[i].volume->value, report.rows()[i].volumeMl);
    EXPECT_EQ(content.groups[i].segSopInstanceUid, segUid);
    EXPECT_TRUE(content.groups[i].segmentNumber);
  }
  EXPECT_EQ(content.referencedImages.size(), 144u);  // the brain MR's slices
  if (fs::exists("/usr/bin/dciodvfy")) {
    EXPECT_EQ(dciodvfyErrors(sr, text), 0) << text;
  }
}

TEST_F(ReportCli, ExportsTheMammographyReportAsSrWithItsImages) {
  delineate::test::TempDir out;
  const fs::path sr = out / "sr.dcm";
  const fs::path study = root() / "mammo/screening-2026";
  std::string text;
  ASSERT_EQ(runCommand(cli() + " report export " + mammoReport().string() + " --format sr --out " +
                           sr.string() + " --study " + study.string(),
                       &text),
            0)
      << text;
  const auto report = std::get<MammographyReport>(readReport(mammoReport()));
  const MammographySrContent content = readMammographyReportSr(sr);
  EXPECT_TRUE(content.values == mammographySrValues(report));
  EXPECT_EQ(content.subject.studyInstanceUid, report.subject().studyInstanceUid);
  EXPECT_EQ(content.referencedImages.size(), 4u);
  EXPECT_EQ(content.findingImages.size(), report.content().findings.size());
  for (const MammoFinding& f : report.content().findings) {
    EXPECT_EQ(content.findingImages.at(f.id), f.link.imageId) << findingName(f.id);
  }
  if (fs::exists("/usr/bin/dciodvfy")) {
    EXPECT_EQ(dciodvfyErrors(sr, text), 0) << text;
  }
}

TEST_F(ReportCli, ExportsPdfsWithKeyImages) {
  delineate::test::TempDir out;
  std::string text;
  const fs::path mammoPdf = out / "mammo.pdf", mrPdf = out / "mr.pdf";
  ASSERT_EQ(
      runCommand(cli() + " report export " + mammoReport().string() + " --format pdf --out " +
                     mammoPdf.string() + " --study " + (root() / "mammo/screening-2026").string(),
                 &text),
      0)
      << text;
  ASSERT_EQ(runCommand("pdftotext -layout " + mammoPdf.string() + " -", &text), 0) << text;
  EXPECT_NE(text.find("DEMONSTRATION FINDINGS, NOT A DIAGNOSIS"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAFT"), std::string::npos) << text;
  EXPECT_NE(text.find("Key images"), std::string::npos) << text;
  EXPECT_NE(text.find("L CC: F"), std::string::npos) << text;   // the view of the mass
  EXPECT_NE(text.find("R MLO: F"), std::string::npos) << text;  // of the calcifications

  ASSERT_EQ(
      runCommand(cli() + " report export " + measurementReport().string() + " --format pdf --out " +
                     mrPdf.string() + " --image " + (root() / "brain-mr/dicom").string() +
                     " --labels " + (root() / "brain-mr/brain-mr_labels.nii.gz").string(),
                 &text),
      0)
      << text;
  ASSERT_EQ(runCommand("pdftotext -layout " + mrPdf.string() + " -", &text), 0) << text;
  EXPECT_NE(text.find("Left hippocampus head: axial slice"), std::string::npos) << text;
  EXPECT_NE(text.find("Lateral ventricles: axial slice"), std::string::npos) << text;

  // Without the images: the PDF still, without key images, and a note saying why.
  ASSERT_EQ(runCommand(cli() + " report export " + measurementReport().string() +
                           " --format pdf --out " + (out / "bare.pdf").string(),
                       &text),
            0)
      << text;
  EXPECT_NE(text.find("no key images: give the image (--image)"), std::string::npos) << text;
  ASSERT_EQ(runCommand("pdftotext " + (out / "bare.pdf").string() + " -", &text), 0) << text;
  EXPECT_EQ(text.find("Key images"), std::string::npos) << text;
  EXPECT_NE(text.find("Right hippocampus body"), std::string::npos) << text;
}

TEST_F(ReportCli, BadRequestsAreRefusedNamingWhatIsWrong) {
  delineate::test::TempDir out;
  std::string text;
  // A measurement report's SR without the series it was measured on.
  EXPECT_EQ(runCommand(cli() + " report export " + measurementReport().string() +
                           " --format sr --out " + (out / "x.dcm").string(),
                       &text),
            1);
  EXPECT_NE(text.find("--image"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(out / "x.dcm"));
  // A broken report file: named with its line.
  std::ofstream(out / "bad.json")
      << "{\n  \"format\": \"delineate-report-measurements\",\n  oops\n}\n";
  EXPECT_EQ(runCommand(cli() + " report show " + (out / "bad.json").string(), &text), 1);
  EXPECT_NE(text.find((out / "bad.json").string() + ":3"), std::string::npos) << text;
  std::ofstream(out / "other.json") << "{\"format\": \"something-else\", \"version\": 1}\n";
  EXPECT_EQ(runCommand(cli() + " report show " + (out / "other.json").string(), &text), 1);
  EXPECT_NE(text.find("unknown report format \"something-else\""), std::string::npos) << text;
  // Usage errors.
  EXPECT_EQ(runCommand(cli() + " report export " + mammoReport().string() + " --format doc --out " +
                       (out / "x").string()),
            2);
  EXPECT_EQ(runCommand(cli() + " report"), 2);
  EXPECT_EQ(runCommand(cli() + " report frobnicate"), 2);
}

#endif
