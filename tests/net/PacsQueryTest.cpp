// Query/retrieve against a real PACS (Debian's Orthanc, started once for these tests on
// 127.0.0.1) over DIMSE: C-FIND of studies by patient name with wildcards, patient ID, date
// ranges, modality and a limit; the series of a study with their counts; C-GET of a series whose
// voxels equal what was sent, in whatever transfer syntax it is stored; a second retrieve that
// asks only for what is missing; Cancel; refusals named; and the CLI's `pacs find|get|send`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "AiTestSupport.h"
#include "OrthancServer.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/dicomweb/PacsService.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomFind.h"
#include "core/pacs/DicomGet.h"
#include "core/pacs/DicomNetwork.h"

using namespace delineate;
namespace fs = std::filesystem;
namespace pacs = core::pacs;

namespace {

struct StoredStudy {
  std::string studyUid;
  std::string seriesUid;
  std::size_t instances = 0;
};

// One Orthanc for the whole suite, holding three studies of the ball image: two CT studies of
// DOE patients (uncompressed) and one of ROE (JPEG-LS lossless).
class PacsQuery : public ::testing::Test {
 protected:
  // Started by the suite's first test, then kept for the others.
  static void startPacs() {
    folder_ = new test::TempDir;
    orthanc_ = new test::OrthancServer(folder_->path() / "orthanc");
    ball_ = new test::BallImage;
    core::NullProgress quiet;
    const auto write = [&](const std::string& name, const std::string& id, const std::string& date,
                           const std::string& accession, core::DicomTransferSyntax syntax,
                           StoredStudy& study) {
      core::DicomWriteOptions options;
      options.syntax = syntax;
      options.instanceKey = id;  // SOP Instance UIDs of its own
      study.studyUid = "1.2.826.0.1.3680043.10.1447.9." + id.substr(1) + "1";
      study.seriesUid = study.studyUid + ".1";
      options.attributes = {{"PatientName", name},
                            {"PatientID", id},
                            {"StudyDate", date},
                            {"AccessionNumber", accession},
                            {"StudyInstanceUID", study.studyUid},
                            {"SeriesInstanceUID", study.seriesUid},
                            {"StudyDescription", "Ball phantom " + id}};
      const auto files =
          core::writeDicomSeries(*ball_->image, folder_->path() / "sent" / id, options, quiet);
      study.instances = files.size();
      const pacs::StoreReport r = pacs::store(orthanc_->node(), files, {}, quiet);
      ASSERT_EQ(r.storedCount(), files.size()) << r.files.front().message;
    };
    write("DOE^JANE", "P1", "20240105", "ACC1", core::DicomTransferSyntax::ExplicitLittleEndian,
          jane_);
    write("DOE^JOHN", "P2", "20250310", "ACC2", core::DicomTransferSyntax::ExplicitLittleEndian,
          john_);
    write("ROE^RICHARD", "P3", "20250601", "ACC3", core::DicomTransferSyntax::JpegLsLossless,
          richard_);
  }
  static void TearDownTestSuite() {
    delete orthanc_;
    delete ball_;
    delete folder_;
    orthanc_ = nullptr;
  }
  void SetUp() override {
    if (!test::OrthancServer::installed()) {
      GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
    }
    if (folder_ == nullptr) {
      ASSERT_NO_FATAL_FAILURE(startPacs());
    }
    if (orthanc_ == nullptr || !orthanc_->running()) {
      GTEST_SKIP() << "Orthanc is not installed or did not start (scripts/install-deps.sh)";
    }
  }

  static std::vector<std::string> patients(const std::vector<pacs::StudyRecord>& studies) {
    std::vector<std::string> names;
    for (const auto& s : studies) {
      names.push_back(s.patientName);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // The retrieved series, loaded as the app would open it.
  static core::VolumePtr load(const fs::path& folder) {
    core::NullProgress quiet;
    const core::DicomScanResult scan = core::scanDicomFolder(folder, quiet);
    const auto series = scan.allSeries();
    EXPECT_EQ(series.size(), 1u);
    return series.empty() ? nullptr : core::loadDicomSeries(*series.front(), quiet);
  }

  static bool sameVoxels(const core::Volume& a, const core::Volume& b) {
    return a.voxels().bytes() == b.voxels().bytes() &&
           std::memcmp(a.voxels().data(), b.voxels().data(), a.voxels().bytes()) == 0;
  }

  static inline test::TempDir* folder_ = nullptr;
  static inline test::OrthancServer* orthanc_ = nullptr;
  static inline test::BallImage* ball_ = nullptr;
  static inline StoredStudy jane_, john_, richard_;
  core::NullProgress quiet_;
  test::TempDir tmp_;
};

std::string queryErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Cancels once `after` instances have arrived.
class CancelAfter : public core::ProgressSink {
 public:
  explicit CancelAfter(int after) : after_(after) {}
  void report(double, std::string_view stage) override {
    if (stage.rfind("received ", 0) == 0 && ++received_ >= after_) {
      cancelled_ = true;
    }
  }
  bool cancelled() const override { return cancelled_; }

 private:
  int after_;
  int received_ = 0;
  bool cancelled_ = false;
};

}  // namespace

TEST_F(PacsQuery, FindsStudiesByNameWildcardIdDateRangeModalityAndLimit) {
  const pacs::DicomNode node = orthanc_->node();
  pacs::StudyQuery q;
  q.patientName = "DOE*";
  EXPECT_EQ(patients(pacs::findStudies(node, q, {}, quiet_)),
            (std::vector<std::string>{"DOE^JANE", "DOE^JOHN"}));
  q = {};
  q.patientName = "doe^j?hn";  // PN matching ignores case on Orthanc's default
  EXPECT_EQ(patients(pacs::findStudies(node, q, {}, quiet_)),
            (std::vector<std::string>{"DOE^JOHN"}));
  q = {};
  q.studyDate = "20250101-";
  EXPECT_EQ(patients(pacs::findStudies(node, q, {}, quiet_)),
            (std::vector<std::string>{"DOE^JOHN", "ROE^RICHARD"}));
  q.studyDate = "-20250401";
  EXPECT_EQ(patients(pacs::findStudies(node, q, {}, quiet_)),
            (std::vector<std::string>{"DOE^JANE", "DOE^JOHN"}));
  q = {};
  q.patientId = "P3";
  q.modality = "CT";
  const auto richard = pacs::findStudies(node, q, {}, quiet_);
  ASSERT_EQ(richard.size(), 1u);
  EXPECT_EQ(richard[0].studyInstanceUid, richard_.studyUid);
  EXPECT_EQ(richard[0].accessionNumber, "ACC3");
  EXPECT_EQ(richard[0].studyDate, "20250601");
  EXPECT_EQ(richard[0].modalities, std::vector<std::string>{"CT"});
  EXPECT_EQ(richard[0].seriesCount, 1);
  EXPECT_EQ(richard[0].instanceCount, static_cast<int>(richard_.instances));
  q = {};
  q.modality = "MR";
  EXPECT_TRUE(pacs::findStudies(node, q, {}, quiet_).empty());
  q = {};
  q.limit = 2;
  EXPECT_EQ(pacs::findStudies(node, q, {}, quiet_).size(), 2u);
}

// A patient's earlier studies (the priors of a hanging, "earlier studies of this patient"):
// searched by patient ID, modality and a date range, the answer checked again.
TEST_F(PacsQuery, FindsAPatientsEarlierStudiesOfAModality) {
  const pacs::DicomNode node = orthanc_->node();
  pacs::StudyRecord later;  // a later CT study of DOE^JOHN (P2), not on the PACS
  later.studyInstanceUid = "1.2.826.0.1.3680043.10.1447.9.99";
  later.patientId = "P2";
  later.studyDate = "20260101";
  const auto found = pacs::findEarlierStudies(node, later, "CT", {}, {}, quiet_);
  ASSERT_EQ(found.size(), 1u) << "P2's study only, not P1's or P3's";
  EXPECT_EQ(found[0].studyInstanceUid, john_.studyUid);
  EXPECT_TRUE(pacs::findEarlierStudies(node, later, "MR", {}, {}, quiet_).empty());
  EXPECT_TRUE(pacs::findEarlierStudies(node, later, "CT", "20250401-20251231", {}, quiet_).empty())
      << "outside the window";
  later.studyDate = "20250310";  // the day of john_'s study: no prior
  EXPECT_TRUE(pacs::findEarlierStudies(node, later, "CT", {}, {}, quiet_).empty());
}

TEST_F(PacsQuery, ListsTheSeriesOfAStudyWithTheirCounts) {
  const auto series = pacs::findSeries(orthanc_->node(), john_.studyUid, {}, quiet_);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].seriesInstanceUid, john_.seriesUid);
  EXPECT_EQ(series[0].modality, "CT");
  EXPECT_EQ(series[0].instanceCount, static_cast<int>(john_.instances));
  EXPECT_EQ(
      pacs::findInstances(orthanc_->node(), john_.studyUid, john_.seriesUid, {}, quiet_).size(),
      john_.instances);
}

TEST_F(PacsQuery, ASearchThatCannotWorkIsRefusedBeforeConnecting) {
  pacs::StudyQuery q;
  q.studyDate = "2025-01-01";
  const std::string e = queryErrorOf([&] { pacs::findStudies(orthanc_->node(), q, {}, quiet_); });
  EXPECT_NE(e.find("is not YYYYMMDD"), std::string::npos) << e;
}

TEST_F(PacsQuery, ACallerThePacsDoesNotKnowIsRefusedNamingTheNode) {
  pacs::DicomNetworkOptions stranger;
  stranger.callingAeTitle = "STRANGER";
  const std::string e =
      queryErrorOf([&] { pacs::findStudies(orthanc_->node(), {}, stranger, quiet_); });
  EXPECT_NE(e.find("the association was not made"), std::string::npos) << e;
  EXPECT_NE(e.find(orthanc_->node().label()), std::string::npos) << e;
}

TEST_F(PacsQuery, RetrieveGivesTheVoxelsThatWereSentWhateverTheTransferSyntax) {
  for (const StoredStudy* study : {&john_, &richard_}) {
    const fs::path out = tmp_.path() / study->studyUid;
    const pacs::RetrieveReport r =
        pacs::retrieveByGet(orthanc_->node(), {study->studyUid, ""}, out, {}, quiet_);
    EXPECT_EQ(r.received, study->instances);
    EXPECT_EQ(r.files.size(), study->instances);
    EXPECT_TRUE(r.missing.empty());
    for (const fs::path& f : r.files) {
      EXPECT_EQ(f.parent_path().filename(), study->seriesUid);
      EXPECT_EQ(f.extension(), ".dcm");
    }
    const core::VolumePtr v = load(out);
    ASSERT_TRUE(v);
    EXPECT_TRUE(sameVoxels(*v, *ball_->image)) << study->studyUid;
  }
}

TEST_F(PacsQuery, ASecondRetrieveAsksOnlyForWhatIsMissing) {
  const fs::path out = tmp_.path() / "again";
  const pacs::RetrieveRequest request{jane_.studyUid, jane_.seriesUid};
  pacs::RetrieveReport first = pacs::retrieveByGet(orthanc_->node(), request, out, {}, quiet_);
  ASSERT_EQ(first.files.size(), jane_.instances);
  // Three instances lost, one of them left as an unfinished download, and one cut short in its
  // pixel data (a crash while copying the folder): the cut one is noticed and fetched again.
  fs::remove(first.files[0]);
  fs::remove(first.files[5]);
  fs::rename(first.files[9], first.files[9].string() + ".partial");
  fs::resize_file(first.files[3], fs::file_size(first.files[3]) / 2);
  const pacs::RetrieveReport second =
      pacs::retrieveByGet(orthanc_->node(), request, out, {}, quiet_);
  EXPECT_EQ(second.received, 4u);
  EXPECT_EQ(second.alreadyLocal, jane_.instances - 4);
  EXPECT_EQ(second.files.size(), jane_.instances);
  const pacs::RetrieveReport third =
      pacs::retrieveByGet(orthanc_->node(), request, out, {}, quiet_);
  EXPECT_EQ(third.received, 0u);
  EXPECT_EQ(third.alreadyLocal, jane_.instances);
  fs::remove(out / jane_.seriesUid / (fs::path(first.files[9]).filename().string() + ".partial"));
  const core::VolumePtr v = load(out);
  ASSERT_TRUE(v);
  EXPECT_TRUE(sameVoxels(*v, *ball_->image));
}

TEST_F(PacsQuery, CancelStopsTheRetrieveAndWhatArrivedIsWholeAndKept) {
  const fs::path out = tmp_.path() / "cancelled";
  CancelAfter cancel(4);
  EXPECT_THROW(pacs::retrieveByGet(orthanc_->node(), {john_.studyUid, ""}, out, {}, cancel),
               core::CancelledError);
  std::size_t whole = 0;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (entry.path().extension() == ".dcm") {
      ++whole;
    }
  }
  EXPECT_GE(whole, 4u);
  EXPECT_LT(whole, john_.instances);
  const pacs::RetrieveReport rest =
      pacs::retrieveByGet(orthanc_->node(), {john_.studyUid, ""}, out, {}, quiet_);
  EXPECT_EQ(rest.alreadyLocal, whole);
  EXPECT_EQ(rest.files.size(), john_.instances);
  EXPECT_TRUE(sameVoxels(*load(out), *ball_->image));
}

TEST_F(PacsQuery, TheCliFindsRetrievesAndRefusesWhatCannotWork) {
  const std::string cli = std::string(DELINEATE_CLI) + " pacs ";
  const std::string node = std::string(" --dimse ") + test::OrthancServer::kAeTitle +
                           "@127.0.0.1:" + std::to_string(orthanc_->dicomPort());
  std::string out;
  ASSERT_EQ(test::runCommand(cli + "find" + node +
                                 " --patient 'DOE*' --date 20250101-20251231 --json 2>/dev/null",
                             &out),
            0)
      << out;
  const nlohmann::json studies = nlohmann::json::parse(out);
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0]["patient_name"], "DOE^JOHN");
  EXPECT_EQ(studies[0]["instances"], john_.instances);

  const fs::path folder = tmp_.path() / "cli";
  ASSERT_EQ(test::runCommand(cli + "get" + node + " --study " + john_.studyUid + " --out '" +
                                 folder.string() + "' 2>/dev/null",
                             &out),
            0)
      << out;
  EXPECT_EQ(nlohmann::json::parse(out)["received"], john_.instances);
  EXPECT_TRUE(sameVoxels(*load(folder), *ball_->image));

  EXPECT_EQ(test::runCommand(cli + "find" + node + " --date yesterday", &out), 1);
  EXPECT_NE(out.find("is not YYYYMMDD"), std::string::npos) << out;
  EXPECT_EQ(test::runCommand(cli + "find", &out), 2);
  EXPECT_NE(out.find("--dimse AET@HOST:PORT"), std::string::npos) << out;
  EXPECT_EQ(test::runCommand(cli + "find --dimse TESTPACS@127.0.0.1:port", &out), 2);
  EXPECT_NE(out.find("the port is not a number"), std::string::npos) << out;
}
