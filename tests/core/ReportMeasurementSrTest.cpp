// The measurement report as a TID 1500 Comprehensive SR: values read back identical, the
// referenced segments of a DICOM SEG, sign-off as completion / verification, DCMTK's own reading
// and tree checks, and dciodvfy.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include "DicomSegTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/DicomSegWriter.h"
#include "core/report/MeasurementReportSr.h"

using namespace delineate::core;
using namespace delineate::core::report;
using delineate::test::TempDir;
using delineate::test::throughDicom;
namespace fs = std::filesystem;

namespace {

const std::vector<Segment> kSegments{
    {.label = 1,
     .name = "Lesion",
     .category = {"49755003", "SCT", "Morphologically Altered Structure"},
     .type = {"4147007", "SCT", "Mass"}},
    {.label = 2, .name = "Node"}};  // no codes: Tissue

// A 20 x 20 x 10 CT of 0.5 x 0.5 x 2 mm written as DICOM and loaded back; "Lesion" (1) a
// 4 x 4 x 2 box, "Node" (2) a 2 x 3 x 1 box; the image value is 100 + the column index.
class MeasurementSr : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new TempDir();
    ImageGeometry g;
    g.size = {20, 20, 10};
    g.spacing = {0.5, 0.5, 2.0};
    auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
    for (std::size_t n = 0; n < g.voxelCount(); ++n) {
      voxels->as<std::int16_t>()[n] = std::int16_t(100 + n % 20);
    }
    VolumeInfo info;
    info.modality = "CT";
    info.patientName = "Test^Patient";
    info.patientId = "P1";
    const Volume made(g, voxels, info);
    image_ = new VolumePtr(throughDicom(made, folder_->path() / "ct"));
    labels_ = new LabelMap("labels", (*image_)->geometry(), kSegments);
    for (std::size_t k = 0; k < 10; ++k) {
      for (std::size_t j = 0; j < 20; ++j) {
        for (std::size_t i = 0; i < 20; ++i) {
          const std::size_t n = labels_->index(i, j, k);
          if (i >= 2 && i < 6 && j >= 2 && j < 6 && k >= 3 && k < 5) {
            labels_->mutableData()[n] = 1;
          } else if (i >= 10 && i < 12 && j >= 10 && j < 13 && k == 7) {
            labels_->mutableData()[n] = 2;
          }
        }
      }
    }
  }
  static void TearDownTestSuite() {
    delete labels_;
    delete image_;
    delete folder_;
  }
  static const Volume& image() { return **image_; }

  static MeasurementReport report(bool signed_) {
    NullProgress progress;
    MeasurementReport r = MeasurementReport::measure(*labels_, &image(), progress);
    r.edit("reader", "2024-05-02T09:00:00Z", [](MeasurementNotes& n) {
      n.impression.set("Solid mass, 8 mm.");
      n.recommendations.set("Follow-up CT in 3 months.");
    });
    if (signed_) {
      r.sign("Dr Jane Reader", "2024-05-02T09:30:00Z");
      r.addAddendum("Compared with prior: stable.", "Dr Jane Reader", "2024-05-03T08:00:00Z");
    }
    return r;
  }

  // Writes the labels as a DICOM SEG and returns the reference to it.
  static SegReference writeSeg(const fs::path& out) {
    NullProgress progress;
    writeDicomSeg(*labels_, image(), out, {}, progress);
    DcmFileFormat file;
    EXPECT_TRUE(file.loadFile(out.c_str()).good());
    OFString sop, series;
    file.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, sop);
    file.getDataset()->findAndGetOFString(DCM_SeriesInstanceUID, series);
    SegReference ref;
    ref.sopInstanceUid = sop.c_str();
    ref.seriesInstanceUid = series.c_str();
    ref.segmentNumbers = {{1, 1}, {2, 2}};  // writeDicomSeg: ascending labels that have voxels
    return ref;
  }

  static TempDir* folder_;
  static VolumePtr* image_;
  static LabelMap* labels_;
};

TempDir* MeasurementSr::folder_ = nullptr;
VolumePtr* MeasurementSr::image_ = nullptr;
LabelMap* MeasurementSr::labels_ = nullptr;

// dciodvfy's output for `file`, and its "Error" lines.
std::pair<std::string, std::vector<std::string>> dciodvfyReport(const fs::path& file) {
  const std::string command = "/usr/bin/dciodvfy '" + file.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string output;
  std::vector<std::string> errors;
  if (!pipe) {
    return {output, errors};
  }
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    output += line;
    if (std::strncmp(line, "Error", 5) == 0) {
      errors.push_back(line);
    }
  }
  ::pclose(pipe);
  return {output, errors};
}

}  // namespace

TEST_F(MeasurementSr, SignedReportReadsBackIdenticalValues) {
  TempDir dir;
  const SegReference seg = writeSeg(dir / "seg.dcm");
  const MeasurementReport r = report(true);
  const fs::path out = dir / "sr.dcm";
  writeMeasurementReportSr(r, image(), seg, out, {.segments = kSegments});
  const MeasurementReportSrContent c = readMeasurementReportSr(out);

  EXPECT_EQ(c.studyInstanceUid, image().info().studyInstanceUid);
  EXPECT_TRUE(c.complete);
  EXPECT_TRUE(c.verified);
  EXPECT_EQ(c.personObserver, "Dr Jane Reader");
  EXPECT_EQ(c.verifyingObserver, "Dr Jane Reader");
  EXPECT_EQ(c.verificationDateTime, "20240502093000+0000");
  EXPECT_EQ(c.referencedImages.size(), 10u);
  EXPECT_EQ(c.impression, "Solid mass, 8 mm.");
  EXPECT_EQ(c.recommendations, "Follow-up CT in 3 months.");
  ASSERT_EQ(c.comments.size(), 1u);
  EXPECT_EQ(c.comments[0],
            "Addendum by Dr Jane Reader at 2024-05-03T08:00:00Z: Compared with prior: stable.");

  ASSERT_EQ(c.groups.size(), r.rows().size());
  ASSERT_EQ(c.groups.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const MeasurementRow& row = r.rows()[i];
    const SrMeasurementGroup& g = c.groups[i];
    EXPECT_EQ(g.trackingId, row.name);
    EXPECT_FALSE(g.trackingUid.empty());
    EXPECT_EQ(g.segSopInstanceUid, seg.sopInstanceUid);
    EXPECT_EQ(g.segmentNumber, std::optional<std::uint16_t>(row.label));
    ASSERT_TRUE(g.volume && g.mean && g.sd && g.largestDiameter);
    EXPECT_EQ(g.volume->value, row.volumeMl);
    EXPECT_EQ(g.volume->unit, "ml");
    EXPECT_EQ(g.mean->value, *row.mean);
    EXPECT_EQ(g.mean->unit, "[hnsf'U]");
    EXPECT_EQ(g.sd->value, *row.sd);
    EXPECT_EQ(g.largestDiameter->value, row.largestDiameterMm);
    EXPECT_EQ(g.largestDiameter->unit, "mm");
  }
  EXPECT_GT(c.groups[0].volume->value, 0.0);
  EXPECT_EQ(c.groups[0].finding, (CodedConcept{"4147007", "SCT", "Mass"}));
  EXPECT_EQ(c.groups[0].findingCategory.value, "49755003");
  EXPECT_EQ(c.groups[1].finding, (CodedConcept{"85756007", "SCT", "Tissue"}));
  // Stable per segment: writing again gives the same tracking UIDs.
  writeMeasurementReportSr(r, image(), seg, dir / "again.dcm", {.segments = kSegments});
  EXPECT_EQ(readMeasurementReportSr(dir / "again.dcm").groups[0].trackingUid,
            c.groups[0].trackingUid);
}

TEST_F(MeasurementSr, UnsignedReportIsPartialUnverifiedWithoutSegReferences) {
  TempDir dir;
  const fs::path out = dir / "sr.dcm";
  writeMeasurementReportSr(report(false), image(), std::nullopt, out);
  const MeasurementReportSrContent c = readMeasurementReportSr(out);
  EXPECT_FALSE(c.complete);
  EXPECT_FALSE(c.verified);
  EXPECT_TRUE(c.personObserver.empty());
  EXPECT_TRUE(c.verifyingObserver.empty());
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_TRUE(c.groups[0].segSopInstanceUid.empty());
  EXPECT_FALSE(c.groups[0].segmentNumber);
  EXPECT_EQ(c.groups[0].finding.value, "85756007");
  EXPECT_TRUE(c.comments.empty());
}

TEST_F(MeasurementSr, DcmtkReadsAValidComprehensiveSrTree) {
  TempDir dir;
  const SegReference seg = writeSeg(dir / "seg.dcm");
  for (const bool signed_ : {true, false}) {
    const fs::path out = dir / (signed_ ? "signed.dcm" : "draft.dcm");
    writeMeasurementReportSr(report(signed_), image(), seg, out, {.segments = kSegments});
    DcmFileFormat file;
    ASSERT_TRUE(file.loadFile(out.c_str()).good());
    DSRDocument doc;
    ASSERT_TRUE(doc.read(*file.getDataset()).good());
    EXPECT_EQ(doc.getDocumentType(), DSRTypes::DT_ComprehensiveSR);
    EXPECT_TRUE(doc.isValid());
    EXPECT_TRUE(doc.getTree().isValidDocumentTree());
    EXPECT_EQ(doc.getCompletionFlag(), signed_ ? DSRTypes::CF_Complete : DSRTypes::CF_Partial);
    EXPECT_EQ(doc.getVerificationFlag(), signed_ ? DSRTypes::VF_Verified : DSRTypes::VF_Unverified);
    ASSERT_GT(doc.getTree().gotoRoot(), 0u);
    OFString templateId, mappingResource;
    doc.getTree().getCurrentContentItem().getTemplateIdentification(templateId, mappingResource);
    EXPECT_EQ(templateId, "1500");
    EXPECT_EQ(mappingResource, "DCMR");
    EXPECT_EQ(doc.getTree().getCurrentContentItem().getConceptName().getCodeValue(), "126000");
  }
}

TEST_F(MeasurementSr, DciodvfyReportsNoErrors) {
  if (!fs::exists("/usr/bin/dciodvfy")) {
    GTEST_SKIP() << "dciodvfy (dicom3tools) is not installed";
  }
  TempDir dir;
  const SegReference seg = writeSeg(dir / "seg.dcm");
  for (const bool signed_ : {true, false}) {
    const fs::path out = dir / "sr.dcm";
    writeMeasurementReportSr(report(signed_), image(), signed_ ? std::optional(seg) : std::nullopt,
                             out, {.segments = kSegments});
    const auto [output, errors] = dciodvfyReport(out);
    EXPECT_TRUE(errors.empty()) << output;
    EXPECT_NE(output.find("ComprehensiveSR"), std::string::npos) << output;
  }
}

TEST_F(MeasurementSr, RefusesAnImageNotReadFromDicom) {
  TempDir dir;
  const Volume research(
      image().geometry(),
      std::make_shared<VoxelBuffer>(ScalarType::Int16, image().geometry().voxelCount()),
      VolumeInfo{});
  try {
    writeMeasurementReportSr(report(false), research, std::nullopt, dir / "sr.dcm");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("read from DICOM"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(MeasurementSr, RefusesAFileThatIsNotAMeasurementReport) {
  TempDir dir;
  const SegReference seg = writeSeg(dir / "seg.dcm");
  EXPECT_THROW(readMeasurementReportSr(dir / "seg.dcm"), Error);
}
