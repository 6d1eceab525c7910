// Cases picked in the study browser: DICOM image series with the SEGs drawn on them, checked
// against a server's schema by the SEG's segment names.
#include <gtest/gtest.h>

#include "DicomSegTestSupport.h"
#include "TempDir.h"
#include "UploadTestSupport.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSegWriter.h"
#include "core/upload/CasePreparation.h"
#include "core/upload/StudyCases.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;
using core::upload::casesFromSeries;
using core::upload::LintFinding;

// Two image series and one SEG ("Liver", value 7) drawn on the first, in one folder.
class StudyCases : public ::testing::Test {
 protected:
  void SetUp() override {
    core::NullProgress quiet;
    withSeg_ = test::throughDicom(*test::boxImage(1), dir_ / "study" / "ct1");
    test::throughDicom(*test::boxImage(2, {14, 12, 6}), dir_ / "study" / "ct2");
    fs::create_directories(dir_ / "study" / "seg");
    core::writeDicomSeg(test::boxLabel(*withSeg_, 7, "Liver"), *withSeg_,
                        dir_ / "study" / "seg" / "liver.dcm", {}, quiet);
    scan_ = core::scanDicomFolder(dir_ / "study", quiet);
    const auto all = scan_.allSeries();
    ASSERT_EQ(all.size(), 3u);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (core::upload::isSegSeries(*all[i])) {
        seg_ = i;
      } else if (all[i]->seriesInstanceUid == withSeg_->info().seriesInstanceUid) {
        ct1_ = i;
      } else {
        ct2_ = i;
      }
    }
    ASSERT_NE(seg_, ct1_);
    ASSERT_NE(ct1_, ct2_);
  }

  std::vector<core::upload::DatasetCase> pick(const std::vector<std::size_t>& picked) {
    core::NullProgress quiet;
    return casesFromSeries(scan_, picked, quiet);
  }

  test::TempDir dir_;
  core::VolumePtr withSeg_;
  core::DicomScanResult scan_;
  std::size_t ct1_ = 0, ct2_ = 0, seg_ = 0;
};

TEST_F(StudyCases, AnImageSeriesBringsTheSegDrawnOnIt) {
  const auto cases = pick({ct1_, ct2_});
  ASSERT_EQ(cases.size(), 2u);
  ASSERT_TRUE(cases[0].series);
  EXPECT_EQ(cases[0].series->seriesInstanceUid, withSeg_->info().seriesInstanceUid);
  ASSERT_EQ(cases[0].labels.size(), 1u);
  EXPECT_EQ(cases[0].labels[0].filename(), "liver.dcm");
  EXPECT_TRUE(cases[1].labels.empty()) << "no SEG refers to the second series";
}

TEST_F(StudyCases, APickedSegIsACaseOfItsSeriesAndPickingBothGivesOne) {
  const auto bySeg = pick({seg_});
  ASSERT_EQ(bySeg.size(), 1u);
  EXPECT_EQ(bySeg[0].series->seriesInstanceUid, withSeg_->info().seriesInstanceUid);
  EXPECT_EQ(pick({ct1_, seg_}).size(), 1u);
  EXPECT_EQ(pick({seg_, ct1_}).size(), 1u);
  EXPECT_THROW(pick({7}), core::Error);
}

TEST_F(StudyCases, TheSegsSegmentNamesAreMatchedToTheServersLabels) {
  core::upload::PrepareOptions options;
  options.schema = {{"background", 0, true}, {"spleen", 1, false}, {"liver", 2, false}};
  core::NullProgress quiet;
  const auto prepared = core::upload::prepareCase(pick({ct1_}).at(0), options, quiet);
  ASSERT_TRUE(prepared.sendable())
      << (prepared.findings.empty() ? "" : prepared.findings[0].message);
  ASSERT_TRUE(prepared.label);
  EXPECT_EQ(prepared.label->at(3, 3, 3), 2) << "'Liver' is 2 on the server, segment 7 in the SEG";
  EXPECT_EQ(prepared.labelInfo, nlohmann::json::parse(R"([{"name":"liver","idx":2}])"));
  EXPECT_TRUE(prepared.image->info().patientName.empty());

  options.schema = {{"background", 0, true}, {"spleen", 1, false}};
  const auto refused = core::upload::prepareCase(pick({seg_}).at(0), options, quiet);
  EXPECT_FALSE(refused.sendable());
  ASSERT_FALSE(refused.findings.empty());
  EXPECT_NE(refused.findings[0].message.find("liver.dcm"), std::string::npos)
      << refused.findings[0].message;
  EXPECT_NE(refused.findings[0].message.find("'Liver'"), std::string::npos)
      << refused.findings[0].message;
}

TEST_F(StudyCases, ASegOnAnotherGridIsAnErrorNamingIt) {
  core::NullProgress quiet;
  auto picked = pick({ct1_}).at(0);
  picked.series = *scan_.allSeries()[ct2_];  // the SEG does not fit the other series' grid
  const auto c = core::upload::prepareCase(picked, {}, quiet);
  EXPECT_FALSE(c.sendable());
  ASSERT_FALSE(c.findings.empty());
  EXPECT_EQ(c.findings[0].severity, LintFinding::Severity::Error);
  EXPECT_NE(c.findings[0].message.find("liver.dcm"), std::string::npos) << c.findings[0].message;
}

}  // namespace
}  // namespace delineate
