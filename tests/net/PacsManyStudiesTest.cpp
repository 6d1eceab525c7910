// A PACS with a thousand studies and a study whose series are stored in different transfer
// syntaxes (Debian's Orthanc with its DICOMweb plugin, started once for these tests on
// 127.0.0.1): every study comes back once through C-FIND and through QIDO-RS paging, a limit is
// kept, and each series of the mixed study is retrieved by C-GET and by WADO-RS with the voxels
// that were sent.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <set>

#include "OrthancServer.h"
#include "TempDir.h"
#include "core/dicomweb/PacsService.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"

using namespace delineate;
namespace fs = std::filesystem;
namespace pacs = core::pacs;

namespace {

constexpr int kStudies = 1000;
constexpr const char* kMixedStudy = "1.2.826.0.1.3680043.10.1447.66.1";

core::VolumePtr smallImage(std::size_t slices, int seed) {
  core::ImageGeometry g;
  g.size = {6, 5, slices};
  g.spacing = {0.7, 0.7, 2.0};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  auto* p = voxels->as<std::int16_t>();
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    p[i] = static_cast<std::int16_t>(int(i * 37 + std::size_t(seed) * 11) % 2000 - 1000);
  }
  core::VolumeInfo info;
  info.modality = "CT";
  return std::make_shared<const core::Volume>(g, voxels, info);
}

class PacsManyStudies : public ::testing::Test {
 protected:
  static void startPacs() {
    folder_ = new test::TempDir;
    test::OrthancOptions options;
    options.dicomWeb = true;
    orthanc_ = new test::OrthancServer(folder_->path() / "orthanc", options);
    if (!orthanc_->running()) {
      return;
    }
    core::NullProgress quiet;
    const core::VolumePtr one = smallImage(1, 0);
    std::vector<fs::path> files;
    for (int i = 0; i < kStudies; ++i) {
      const std::string n = std::to_string(i);
      core::DicomWriteOptions o;
      o.instanceKey = "many" + n;
      o.attributes = {{"PatientName", "MANY^P" + n},
                      {"PatientID", "M" + n},
                      {"StudyDate", "20250" + std::to_string(1 + i % 9) + "15"},
                      {"StudyInstanceUID", "1.2.826.0.1.3680043.10.1447.65." + n},
                      {"SeriesInstanceUID", "1.2.826.0.1.3680043.10.1447.65." + n + ".1"}};
      const auto written = core::writeDicomSeries(*one, folder_->path() / "many" / n, o, quiet);
      files.insert(files.end(), written.begin(), written.end());
    }
    const pacs::StoreReport r = pacs::store(orthanc_->node(), files, {}, quiet);
    ASSERT_EQ(r.storedCount(), files.size());
    // The mixed study, by STOW-RS (Orthanc keeps what STOW sends as it is).
    std::vector<fs::path> mixed;
    for (int s = 0; s < 2; ++s) {
      core::DicomWriteOptions o;
      o.syntax = s == 0 ? core::DicomTransferSyntax::ExplicitLittleEndian
                        : core::DicomTransferSyntax::JpegLsLossless;
      o.instanceKey = "mixed" + std::to_string(s);
      o.attributes = {{"PatientName", "MIXED^SYNTAX"},
                      {"PatientID", "MIX"},
                      {"StudyInstanceUID", kMixedStudy},
                      {"SeriesInstanceUID", std::string(kMixedStudy) + "." + std::to_string(s + 1)},
                      {"SeriesNumber", std::to_string(s + 1)}};
      sent_[s] = smallImage(4, s + 1);
      const auto written = core::writeDicomSeries(
          *sent_[s], folder_->path() / "mixed" / std::to_string(s), o, quiet);
      mixed.insert(mixed.end(), written.begin(), written.end());
    }
    const pacs::StoreReport m = pacs::sendFiles(orthanc_->webNode(), mixed, {}, quiet);
    ASSERT_EQ(m.storedCount(), mixed.size());
  }
  static void TearDownTestSuite() {
    delete orthanc_;
    delete folder_;
    orthanc_ = nullptr;
    folder_ = nullptr;
  }
  void SetUp() override {
    if (!test::OrthancServer::installed() || !test::OrthancServer::dicomWebInstalled()) {
      GTEST_SKIP() << "Orthanc or its DICOMweb plugin is not installed (scripts/install-deps.sh)";
    }
    if (folder_ == nullptr) {
      ASSERT_NO_FATAL_FAILURE(startPacs());
    }
    if (orthanc_ == nullptr || !orthanc_->running()) {
      GTEST_SKIP() << "Orthanc did not start";
    }
  }

  static inline test::TempDir* folder_ = nullptr;
  static inline test::OrthancServer* orthanc_ = nullptr;
  static inline core::VolumePtr sent_[2];
  core::NullProgress quiet_;
  test::TempDir tmp_;
};

}  // namespace

TEST_F(PacsManyStudies, EveryOneOfAThousandStudiesComesBackOnceEitherWay) {
  for (const pacs::DicomNode& node : {orthanc_->node(), orthanc_->webNode()}) {
    SCOPED_TRACE(node.label());
    const auto all = pacs::queryStudies(node, {}, {}, quiet_);
    std::set<std::string> uids;
    for (const auto& s : all) {
      uids.insert(s.studyInstanceUid);
    }
    EXPECT_EQ(all.size(), std::size_t(kStudies + 1));
    EXPECT_EQ(uids.size(), all.size()) << "a study listed twice";
    pacs::StudyQuery limited;
    limited.limit = 1000;
    EXPECT_EQ(pacs::queryStudies(node, limited, {}, quiet_).size(), 1000u);
    pacs::StudyQuery march;
    march.studyDate = "20250301-20250331";
    int inMarch = 0;
    for (int i = 0; i < kStudies; ++i) {
      inMarch += i % 9 == 2 ? 1 : 0;
    }
    EXPECT_EQ(pacs::queryStudies(node, march, {}, quiet_).size(), std::size_t(inMarch));
  }
}

TEST_F(PacsManyStudies, EachSeriesOfAMixedSyntaxStudyIsRetrievedWithItsVoxels) {
  for (const pacs::DicomNode& node : {orthanc_->node(), orthanc_->webNode()}) {
    SCOPED_TRACE(node.label());
    const fs::path out = tmp_.path() / (node.isDicomWeb() ? "web" : "dimse");
    const pacs::RetrieveReport r = pacs::retrieveStudy(node, {kMixedStudy, {}}, out, {}, quiet_);
    EXPECT_EQ(r.files.size(), 8u);
    EXPECT_TRUE(r.missing.empty());
    for (int s = 0; s < 2; ++s) {
      const fs::path series = out / (std::string(kMixedStudy) + "." + std::to_string(s + 1));
      const core::DicomScanResult scan = core::scanDicomFolder(series, quiet_);
      ASSERT_EQ(scan.allSeries().size(), 1u) << series;
      const core::VolumePtr v = core::loadDicomSeries(*scan.allSeries().front(), quiet_);
      ASSERT_EQ(v->voxels().bytes(), sent_[s]->voxels().bytes());
      EXPECT_EQ(std::memcmp(v->voxels().data(), sent_[s]->voxels().data(), v->voxels().bytes()), 0)
          << "series " << s + 1;
    }
  }
}
