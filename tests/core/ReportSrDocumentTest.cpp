// Any DICOM SR read for display: our measurement and mammography reports, a foreign SR built here
// with dcmsr (spatial coordinates and a by-reference relationship listed as shown as text), and
// errors naming the file for a truncated SR, a file that is not DICOM and an image.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "ReportSrTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/model/LabelMap.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/MeasurementReport.h"
#include "core/report/MeasurementReportSr.h"
#include "core/report/SrDocument.h"

using namespace delineate::core;
using namespace delineate::core::report;
using namespace delineate::test;
namespace fs = std::filesystem;

namespace {

DSRCodedEntryValue code(const char* value, const char* scheme, const char* meaning) {
  return DSRCodedEntryValue(value, scheme, meaning);
}

// A Comprehensive SR from another vendor: a person observer, an impression, a date, a diameter
// inferred from a polyline selected from an image, and a finding inferred from that diameter by
// reference.
void writeForeignSr(const fs::path& out) {
  DSRDocument doc(DSRTypes::DT_ComprehensiveSR);
  doc.setPatientName("Roe^Richard");
  doc.setManufacturer("Other Vendor");
  DSRDocumentTree& t = doc.getTree();
  ASSERT_GT(t.addContentItem(DSRTypes::RT_isRoot, DSRTypes::VT_Container), 0u);
  t.getCurrentContentItem().setConceptName(code("18748-4", "LN", "Diagnostic Imaging Report"));
  ASSERT_GT(
      t.addContentItem(DSRTypes::RT_hasObsContext, DSRTypes::VT_PName, DSRTypes::AM_belowCurrent),
      0u);
  t.getCurrentContentItem().setConceptName(code("121008", "DCM", "Person Observer Name"));
  t.getCurrentContentItem().setStringValue("Smith^Anna");
  ASSERT_GT(t.addContentItem(DSRTypes::RT_contains, DSRTypes::VT_Text), 0u);
  t.getCurrentContentItem().setConceptName(code("121073", "DCM", "Impression"));
  t.getCurrentContentItem().setStringValue("No change since the prior study.");
  ASSERT_GT(t.addContentItem(DSRTypes::RT_contains, DSRTypes::VT_Date), 0u);
  t.getCurrentContentItem().setConceptName(code("111060", "DCM", "Study Date"));
  t.getCurrentContentItem().setStringValue("20240502");
  const std::size_t num = t.addContentItem(DSRTypes::RT_contains, DSRTypes::VT_Num);
  ASSERT_GT(num, 0u);
  t.getCurrentContentItem().setConceptName(code("81827009", "SCT", "Diameter"));
  t.getCurrentContentItem().setNumericValue(
      DSRNumericMeasurementValue("7.5", code("mm", "UCUM", "millimeter")));
  ASSERT_GT(
      t.addContentItem(DSRTypes::RT_inferredFrom, DSRTypes::VT_SCoord, DSRTypes::AM_belowCurrent),
      0u);
  DSRSpatialCoordinatesValue polyline(DSRTypes::GT_Polyline);
  polyline.getGraphicDataList().addItem(1, 1);
  polyline.getGraphicDataList().addItem(5, 4);
  polyline.getGraphicDataList().addItem(9, 2);
  ASSERT_TRUE(t.getCurrentContentItem().setSpatialCoordinates(polyline).good());
  ASSERT_GT(
      t.addContentItem(DSRTypes::RT_selectedFrom, DSRTypes::VT_Image, DSRTypes::AM_belowCurrent),
      0u);
  t.getCurrentContentItem().setImageReference(
      DSRImageReferenceValue(UID_DigitalMammographyXRayImageStorageForPresentation, "1.2.3.4.5"));
  t.goUp();
  t.goUp();
  ASSERT_GT(t.addContentItem(DSRTypes::RT_contains, DSRTypes::VT_Code), 0u);
  t.getCurrentContentItem().setConceptName(code("121071", "DCM", "Finding"));
  t.getCurrentContentItem().setCodeValue(code("129788004", "SCT", "Mammographic breast mass"));
  ASSERT_GT(t.addByReferenceRelationship(DSRTypes::RT_inferredFrom, num), 0u);
  DcmFileFormat file;
  ASSERT_TRUE(doc.write(*file.getDataset()).good());
  ASSERT_TRUE(file.saveFile(out.c_str(), EXS_LittleEndianExplicit).good());
}

// A measurement report SR of one segment on a small CT read from DICOM.
void writeMeasurementSr(const fs::path& folder, const fs::path& out) {
  const VolumePtr image = [&] {
    writeSeries(*makeCt(axialGeometry(8, 8, 2)), folder / "ct");
    return loadFolder(folder / "ct");
  }();
  LabelMap labels("labels", image->geometry(), {{.label = 1, .name = "Lesion"}});
  for (std::size_t i = 2; i < 5; ++i) {
    labels.mutableData()[labels.index(i, 3, 1)] = 1;
  }
  NullProgress progress;
  const MeasurementReport r = MeasurementReport::measure(labels, image.get(), progress);
  writeMeasurementReportSr(r, *image, std::nullopt, out);
}

// The first node (depth first) for which `match` holds.
const SrNode* findNode(const SrNode& n, const std::function<bool(const SrNode&)>& match) {
  if (match(n)) {
    return &n;
  }
  for (const SrNode& c : n.children) {
    if (const SrNode* found = findNode(c, match)) {
      return found;
    }
  }
  return nullptr;
}

const SrNode* byConcept(const SrDocument& d, const std::string& codeValue) {
  return findNode(d.root, [&](const SrNode& n) { return n.name.value == codeValue; });
}

const SrNode* byType(const SrDocument& d, const std::string& valueType) {
  return findNode(d.root, [&](const SrNode& n) { return n.valueType == valueType; });
}

Error expectInvalidInputNaming(const fs::path& file) {
  try {
    readSrDocument(file);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput) << e.what();
    EXPECT_EQ(e.where(), file.string());
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    return e;
  }
  ADD_FAILURE() << "expected an Error for " << file;
  return Error(ErrorKind::Internal, "", "none");
}

}  // namespace

TEST(ReportSrDocument, ReadsOurMammographyReport) {
  TempDir dir;
  const std::vector<MammoViewFile> views = writeMammoStudy(dir / "study");
  const fs::path out = dir / "sr.dcm";
  writeMammographyReportSr(signedMammoReport(views), {pathsOf(views)}, out);
  const SrDocument d = readSrDocument(out);

  EXPECT_EQ(d.kind, SrKind::OurMammographyReport);
  EXPECT_EQ(d.title, "Breast Imaging Report");
  EXPECT_EQ(d.titleCode, (CodedConcept{"111400", "DCM", "Breast Imaging Report"}));
  EXPECT_EQ(d.sopClassUid, UID_ComprehensiveSRStorage);
  EXPECT_NE(d.sopClassName.find("Comprehensive"), std::string::npos) << d.sopClassName;
  EXPECT_TRUE(d.complete);
  EXPECT_TRUE(d.verified);
  EXPECT_EQ(d.observer, "Dr Jane Reader");
  EXPECT_EQ(d.studyInstanceUid, kMammoStudyUid);
  EXPECT_TRUE(d.notShown.empty());
  EXPECT_EQ(d.root.relationship, "");
  EXPECT_EQ(d.root.valueType, "CONTAINER");

  const SrNode* composition = byConcept(d, "129715009");
  ASSERT_NE(composition, nullptr);
  EXPECT_EQ(composition->valueType, "CODE");
  EXPECT_EQ(composition->relationship, "CONTAINS");
  EXPECT_EQ(composition->value, "Heterogeneously dense");
  EXPECT_EQ(composition->code->value, "129718006");
  const SrNode* size = byConcept(d, "81827009");
  ASSERT_NE(size, nullptr);
  EXPECT_EQ(size->number, 12.345678901234);
  EXPECT_EQ(size->unit.value, "mm");
  EXPECT_EQ(size->value.substr(size->value.size() - 3), " mm");
  const SrNode* image = byType(d, "IMAGE");
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->referencedSopInstanceUid, views[0].sopInstanceUid);
  EXPECT_GT(d.itemCount, 30u);
}

TEST(ReportSrDocument, ReadsOurMeasurementReport) {
  TempDir dir;
  const fs::path out = dir / "sr.dcm";
  writeMeasurementSr(dir.path(), out);
  const SrDocument d = readSrDocument(out);
  EXPECT_EQ(d.kind, SrKind::OurMeasurementReport);
  EXPECT_EQ(d.title, "Imaging Measurement Report");
  EXPECT_FALSE(d.complete);
  EXPECT_FALSE(d.verified);
  EXPECT_EQ(d.observer, "Delineate");  // the device observer of an unsigned report
  EXPECT_TRUE(d.notShown.empty());
  const SrNode* volume = byConcept(d, "118565006");
  ASSERT_NE(volume, nullptr);
  EXPECT_EQ(volume->valueType, "NUM");
  EXPECT_EQ(volume->unit.value, "ml");
  EXPECT_GT(*volume->number, 0.0);
}

TEST(ReportSrDocument, ForeignSrIsShownWithWhatIsOnlyText) {
  TempDir dir;
  const fs::path out = dir / "foreign.dcm";
  writeForeignSr(out);
  const SrDocument d = readSrDocument(out);

  EXPECT_EQ(d.kind, SrKind::Foreign);
  EXPECT_EQ(d.title, "Diagnostic Imaging Report");
  EXPECT_EQ(d.manufacturer, "Other Vendor");
  EXPECT_EQ(d.observer, "Smith^Anna");
  EXPECT_FALSE(d.verified);
  EXPECT_EQ(d.itemCount, 9u);
  EXPECT_EQ(d.notShown,
            (std::vector<std::string>{
                "1 item of value type SCOORD shown as text",
                "1 by-reference relationship shown as a reference to the content item's "
                "position"}));

  const SrNode* impression = byConcept(d, "121073");
  ASSERT_NE(impression, nullptr);
  EXPECT_EQ(impression->value, "No change since the prior study.");
  EXPECT_EQ(byConcept(d, "111060")->value, "2024-05-02");
  const SrNode* diameter = byConcept(d, "81827009");
  ASSERT_NE(diameter, nullptr);
  EXPECT_EQ(diameter->number, 7.5);
  EXPECT_EQ(diameter->value, "7.5 mm");
  ASSERT_EQ(diameter->children.size(), 1u);
  const SrNode& scoord = diameter->children[0];
  EXPECT_EQ(scoord.relationship, "INFERRED FROM");
  EXPECT_EQ(scoord.valueType, "SCOORD");
  EXPECT_EQ(scoord.value, "POLYLINE (3 points)");
  ASSERT_EQ(scoord.children.size(), 1u);
  EXPECT_EQ(scoord.children[0].relationship, "SELECTED FROM");
  EXPECT_EQ(scoord.children[0].referencedSopInstanceUid, "1.2.3.4.5");
  const SrNode* finding = byConcept(d, "121071");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->value, "Mammographic breast mass");
  ASSERT_EQ(finding->children.size(), 1u);
  EXPECT_EQ(finding->children[0].valueType, "BY REFERENCE");
  EXPECT_EQ(finding->children[0].relationship, "INFERRED FROM");
  EXPECT_NE(finding->children[0].value.find("1.4"), std::string::npos)
      << finding->children[0].value;
}

TEST(ReportSrDocument, TruncatedSrIsRefusedNamingTheFile) {
  TempDir dir;
  const fs::path whole = dir / "foreign.dcm";
  writeForeignSr(whole);
  std::ifstream in(whole, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const double part : {0.5, 0.9}) {
    const fs::path cut = dir / ("cut-" + std::to_string(int(part * 100)) + ".dcm");
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, std::size_t(bytes.size() * part));
    const Error e = expectInvalidInputNaming(cut);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(ReportSrDocument, FileThatIsNotDicomIsRefusedNamingTheFile) {
  TempDir dir;
  const fs::path text = dir / "notes.dcm";
  std::ofstream(text) << "Findings: none.\nThis is a text file, not DICOM.\n";
  const Error e = expectInvalidInputNaming(text);
  EXPECT_NE(std::string(e.what()).find("not a DICOM file"), std::string::npos) << e.what();
}

TEST(ReportSrDocument, ImageIsRefusedAsNotAStructuredReport) {
  TempDir dir;
  const std::vector<MammoViewFile> views = writeMammoStudy(dir / "study");
  const Error e = expectInvalidInputNaming(views[0].path);
  EXPECT_NE(std::string(e.what()).find("not a DICOM structured report"), std::string::npos)
      << e.what();
}

TEST(ReportSrDocument, MissingFileIsAnIoError) {
  TempDir dir;
  try {
    readSrDocument(dir / "absent.dcm");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io) << e.what();
    EXPECT_EQ(e.where(), (dir / "absent.dcm").string());
  }
}
