// AI findings as a DICOM Mammography CAD SR: written for a four-view study and read back with the
// same marks (kind, centre, box, outline, certainty, probability of cancer, rendering intent),
// dciodvfy's verdict, refusals that name the file, and merging the findings of several reports.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "ReportSrTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/report/MammoCadSr.h"

using namespace delineate::core;
using namespace delineate::core::report;
using namespace delineate::test;
using mammo::FindingMark;
using mammo::RenderingIntent;
namespace fs = std::filesystem;

namespace {

class MammoCadSr : public MammoStudySuite {};

FindingMark mark(std::string kind, double column, double row, double score) {
  FindingMark m;
  m.kind = std::move(kind);
  m.column = column;
  m.row = row;
  m.x0 = m.x1 = column;
  m.y0 = m.y1 = row;
  m.score = score;
  return m;
}

// R CC: a scored mass with a box and a probability; L MLO: an optional calcification cluster
// with an outline, a not-for-presentation asymmetry and an unscored finding with no code; the
// second image is named by its path, as the app may hold it.
mammo::StudyFindings sampleFindings(const std::vector<MammoViewFile>& views) {
  mammo::StudyFindings f;
  f.source = "Built-in demonstration detector (not a diagnosis)";
  f.demonstration = true;
  FindingMark mass = mark("mass", 7.5, 9, 0.81);
  mass.x0 = 4, mass.y0 = 6.5, mass.x1 = 11, mass.y1 = 11.5;
  mass.probability = 0.125;
  FindingMark cluster = mark("calcification", 5, 12, 0.4);
  cluster.intent = RenderingIntent::Optional;
  cluster.outline = {{3, 10}, {7, 10.5}, {6.5, 14}, {3.5, 13}};
  cluster.x0 = 3, cluster.y0 = 10, cluster.x1 = 7, cluster.y1 = 14;
  FindingMark asymmetry = mark("asymmetry", 12, 4, 0.3);
  asymmetry.intent = RenderingIntent::NotForPresentation;
  asymmetry.x0 = 10, asymmetry.y0 = 2, asymmetry.x1 = 14, asymmetry.y1 = 6;
  FindingMark node = mark("lymph node", 2, 3, 0);
  node.scored = false;
  node.frame = 0;  // a frame of a one-frame image: not written (DICOM forbids it), read as none
  f.images.push_back({views[0].sopInstanceUid, {mass}, std::nullopt});
  f.images.push_back({views[3].path.string(), {cluster, asymmetry, node}, std::nullopt});
  return f;
}

void expectSameMark(const FindingMark& a, const FindingMark& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.column, b.column);
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.x0, b.x0);
  EXPECT_EQ(a.y0, b.y0);
  EXPECT_EQ(a.x1, b.x1);
  EXPECT_EQ(a.y1, b.y1);
  EXPECT_EQ(a.scored, b.scored);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.probability, b.probability);
  EXPECT_EQ(a.intent, b.intent);
  EXPECT_EQ(a.outline, b.outline);
  EXPECT_EQ(a.frame, b.frame);
}

TEST_F(MammoCadSr, WrittenFindingsReadBackTheSame) {
  const mammo::StudyFindings written = sampleFindings(views());
  const fs::path out = dir() / "cad.dcm";
  writeMammographyCadSr(written, pathsOf(views()), out);
  ASSERT_TRUE(isMammographyCadSr(out));

  const CadSrContent read = readMammographyCadSr(out);
  EXPECT_TRUE(read.warnings.empty()) << read.warnings.front();
  EXPECT_EQ(read.studyInstanceUid, kMammoStudyUid);
  EXPECT_EQ(read.findings.source, written.source);
  EXPECT_TRUE(read.findings.demonstration);
  EXPECT_EQ(read.findings.processingSummary, "All algorithms succeeded; with findings");
  EXPECT_TRUE(read.findings.failedAlgorithms.empty());
  ASSERT_EQ(read.findings.images.size(), 2u);
  // Images come back by SOP Instance UID, the path one included.
  EXPECT_EQ(read.findings.images[0].imageId, views()[0].sopInstanceUid);
  EXPECT_EQ(read.findings.images[1].imageId, views()[3].sopInstanceUid);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(read.findings.images[i].marks.size(), written.images[i].marks.size());
    for (std::size_t k = 0; k < written.images[i].marks.size(); ++k) {
      SCOPED_TRACE(written.images[i].marks[k].kind);
      FindingMark expected = written.images[i].marks[k];
      expected.frame.reset();
      expectSameMark(read.findings.images[i].marks[k], expected);
    }
  }
}

TEST_F(MammoCadSr, PassesDciodvfyWithoutErrors) {
  if (!haveDciodvfy()) {
    GTEST_SKIP() << "dciodvfy (dicom3tools) is not installed";
  }
  const fs::path out = dir() / "cad-checked.dcm";
  writeMammographyCadSr(sampleFindings(views()), pathsOf(views()), out);
  const DciodvfyResult v = dciodvfy(out);
  EXPECT_TRUE(v.errors.empty()) << v.output;
  EXPECT_NE(v.output.find("MammographyCADSR"), std::string::npos) << v.output;
  for (const std::string& w : v.warnings) {
    std::cout << "dciodvfy: " << w;
  }
}

TEST_F(MammoCadSr, NoFindingsIsASucceededReportWithoutFindings) {
  mammo::StudyFindings none;
  none.source = "Mass detector";
  const fs::path out = dir() / "cad-empty.dcm";
  writeMammographyCadSr(none, pathsOf(views()), out, {"2.1", {"mass"}});
  const CadSrContent read = readMammographyCadSr(out);
  EXPECT_EQ(read.findings.processingSummary, "All algorithms succeeded; without findings");
  EXPECT_TRUE(read.findings.images.empty());
  EXPECT_FALSE(read.findings.demonstration);
}

TEST_F(MammoCadSr, AMarkOnAnImageNotGivenIsRefusedByName) {
  mammo::StudyFindings f = sampleFindings(views());
  f.images[0].imageId = "1.2.3.4.5.999";
  const fs::path out = dir() / "cad-refused.dcm";
  try {
    writeMammographyCadSr(f, pathsOf(views()), out);
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("1.2.3.4.5.999"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(MammoCadSr, OtherObjectsAreRefusedByName) {
  const fs::path text = dir() / "not-dicom.dcm";
  std::ofstream(text) << "hello";
  EXPECT_FALSE(isMammographyCadSr(text));
  try {
    readMammographyCadSr(text);
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not-dicom.dcm"), std::string::npos) << e.what();
  }
  // An image is DICOM but not a CAD report.
  EXPECT_FALSE(isMammographyCadSr(views()[0].path));
  EXPECT_THROW(readMammographyCadSr(views()[0].path), Error);
}

// A vendor's report, written by DCMTK's xml2dsr from XML made by hand from PS3.16 TID 4000 (not
// by Delineate): a mass correlated on two views as a composite feature of two densities (one with
// a legacy SNOMED-RT code, a CIRCLE outline and its own certainty; one with a rotated ELLIPSE and
// the composite's certainty), an optional calcification cluster with one of its calcifications, a
// not-for-presentation distortion, a breast composition (not a mark) and a failed detection.
TEST_F(MammoCadSr, AVendorReportWrittenByXml2dsrIsRead) {
  if (!fs::exists("/usr/bin/xml2dsr")) {
    GTEST_SKIP() << "xml2dsr (dcmtk) is not installed";
  }
  const fs::path xml = fs::path(DELINEATE_TEST_DATA) / "cad-sr" / "vendor-cad.xml";
  const fs::path dcm = dir() / "vendor-cad.dcm";
  const std::string command = "/usr/bin/xml2dsr -q '" + xml.string() + "' '" + dcm.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  ASSERT_TRUE(isMammographyCadSr(dcm));

  const CadSrContent read = readMammographyCadSr(dcm);
  const mammo::StudyFindings& f = read.findings;
  EXPECT_EQ(read.studyInstanceUid, "1.2.826.0.1.3680043.10.1234.9.100");
  EXPECT_EQ(f.source, "VendorAD, VendorCalc, VendorMass");
  EXPECT_EQ(f.processingSummary, "Not all algorithms succeeded; with findings");
  EXPECT_EQ(f.failedAlgorithms, std::vector<std::string>{"VendorAsym"});
  EXPECT_FALSE(f.demonstration);
  ASSERT_EQ(f.images.size(), 4u);
  const std::string uid = "1.2.826.0.1.3680043.10.1234.9.";
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(f.images[i].imageId, uid + std::to_string(i + 1));
    ASSERT_EQ(f.images[i].marks.size(), 1u) << "image " << i;
  }
  // R CC: the composite's kind, the finding's own certainty, the composite's probability; the
  // CIRCLE of radius 10 around the centre as the box. Centres are DICOM's minus half a pixel.
  const FindingMark& rcc = f.images[0].marks[0];
  EXPECT_EQ(rcc.kind, "mass");
  EXPECT_DOUBLE_EQ(rcc.column, 100);
  EXPECT_DOUBLE_EQ(rcc.row, 200);
  EXPECT_NEAR(rcc.x0, 90, 1e-4);
  EXPECT_NEAR(rcc.x1, 110, 1e-4);
  EXPECT_NEAR(rcc.y0, 190, 1e-4);
  EXPECT_NEAR(rcc.y1, 210, 1e-4);
  EXPECT_DOUBLE_EQ(rcc.score, 0.80);
  ASSERT_TRUE(rcc.probability.has_value());
  EXPECT_DOUBLE_EQ(*rcc.probability, 0.35);
  EXPECT_EQ(rcc.intent, RenderingIntent::Required);
  // R MLO: no certainty of its own (the composite's 88 %); a 45-degree ellipse with semi-axes 12
  // and 6, whose bounding box is sqrt(72 + 18) either side of the centre.
  const FindingMark& rmlo = f.images[1].marks[0];
  EXPECT_EQ(rmlo.kind, "mass");
  EXPECT_DOUBLE_EQ(rmlo.score, 0.88);
  EXPECT_NEAR(rmlo.x0, 300 - std::sqrt(90.0), 1e-3);
  EXPECT_NEAR(rmlo.x1, 300 + std::sqrt(90.0), 1e-3);
  EXPECT_NEAR(rmlo.y0, 150 - std::sqrt(90.0), 1e-3);
  EXPECT_NEAR(rmlo.y1, 150 + std::sqrt(90.0), 1e-3);
  // L CC: the container's "optional" wins over the finding's "required"; the closed polyline is
  // the outline (without its repeated first point); the calcification inside it is no mark.
  const FindingMark& lcc = f.images[2].marks[0];
  EXPECT_EQ(lcc.kind, "calcification");
  EXPECT_EQ(lcc.intent, RenderingIntent::Optional);
  EXPECT_DOUBLE_EQ(lcc.score, 0.62);
  EXPECT_EQ(lcc.outline.size(), 4u);
  EXPECT_DOUBLE_EQ(lcc.x0, 390);
  EXPECT_DOUBLE_EQ(lcc.y1, 510);
  // L MLO: not for presentation, no certainty given.
  const FindingMark& lmlo = f.images[3].marks[0];
  EXPECT_EQ(lmlo.kind, "architectural distortion");
  EXPECT_EQ(lmlo.intent, RenderingIntent::NotForPresentation);
  EXPECT_FALSE(lmlo.scored);
  EXPECT_DOUBLE_EQ(lmlo.column, 50);
  EXPECT_DOUBLE_EQ(lmlo.row, 60);
}

// The writer's output survives DCMTK's own XML round trip (dsr2xml, then xml2dsr) unchanged.
TEST_F(MammoCadSr, SurvivesDcmtksXmlRoundTrip) {
  if (!fs::exists("/usr/bin/xml2dsr") || !fs::exists("/usr/bin/dsr2xml")) {
    GTEST_SKIP() << "dsr2xml / xml2dsr (dcmtk) are not installed";
  }
  const fs::path out = dir() / "cad-xml.dcm";
  const fs::path xml = dir() / "cad.xml";
  const fs::path again = dir() / "cad-again.dcm";
  writeMammographyCadSr(sampleFindings(views()), pathsOf(views()), out);
  const std::string toXml = "/usr/bin/dsr2xml -q '" + out.string() + "' > '" + xml.string() + "'";
  const std::string back = "/usr/bin/xml2dsr -q '" + xml.string() + "' '" + again.string() + "'";
  ASSERT_EQ(std::system(toXml.c_str()), 0);
  ASSERT_EQ(std::system(back.c_str()), 0);
  const mammo::StudyFindings a = readMammographyCadSr(out).findings;
  const mammo::StudyFindings b = readMammographyCadSr(again).findings;
  ASSERT_EQ(a.images.size(), b.images.size());
  for (std::size_t i = 0; i < a.images.size(); ++i) {
    ASSERT_EQ(a.images[i].marks.size(), b.images[i].marks.size());
    for (std::size_t k = 0; k < a.images[i].marks.size(); ++k) {
      expectSameMark(a.images[i].marks[k], b.images[i].marks[k]);
    }
  }
}

TEST(MammoCadSrMerge, JoinsImagesSourcesAndFailures) {
  mammo::StudyFindings a, b;
  a.source = "Mass detector";
  a.processingSummary = "All algorithms succeeded; with findings";
  a.images.push_back({"1.2.3", {mark("mass", 1, 1, 0.5)}, std::nullopt});
  b.source = "Calcification detector";
  b.failedAlgorithms = {"Density analysis"};
  b.demonstration = true;
  b.images.push_back({"1.2.3", {mark("calcification", 2, 2, 0.7)}, std::nullopt});
  b.images.push_back({"1.2.4", {mark("calcification", 3, 3, 0.6)}, std::nullopt});
  const mammo::StudyFindings merged = mergeCadFindings({a, b});
  EXPECT_EQ(merged.source, "Mass detector; Calcification detector");
  EXPECT_TRUE(merged.demonstration);
  EXPECT_EQ(merged.failedAlgorithms, std::vector<std::string>{"Density analysis"});
  ASSERT_EQ(merged.images.size(), 2u);
  EXPECT_EQ(merged.images[0].marks.size(), 2u);
  EXPECT_EQ(merged.images[1].marks.size(), 1u);
}

}  // namespace
