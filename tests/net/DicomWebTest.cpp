// Query/retrieve/store against a real DICOMweb server: Debian's Orthanc with its DICOMweb plugin
// (orthanc-dicomweb), started for these tests on 127.0.0.1 with HTTP Basic authentication on.
// STOW-RS fills it (each instance checked in the answer); QIDO-RS searches as C-FIND does, page
// by page; WADO-RS gives back the voxels that were sent, in the syntax they were stored; a
// retrieve cut by a dropped connection is finished by the next try; wrong credentials and a
// wrong base URL are named; and the CLI speaks --dicomweb.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "AiTestSupport.h"
#include "FaultProxy.h"
#include "OrthancServer.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/dicomweb/DicomWebClient.h"
#include "core/dicomweb/PacsService.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate;
namespace fs = std::filesystem;
namespace pacs = core::pacs;

namespace {

constexpr const char* kWebUser = "reader";
constexpr const char* kWebPassword = "s3cret pass:word";

struct WebStudy {
  std::string studyUid;
  std::string seriesUid;
  std::vector<fs::path> files;
};

class DicomWeb : public ::testing::Test {
 protected:
  static void startPacs() {
    folder_ = new test::TempDir;
    test::OrthancOptions options;
    options.dicomWeb = true;
    options.users = {{kWebUser, kWebPassword}};
    orthanc_ = new test::OrthancServer(folder_->path() / "orthanc", options);
    ball_ = new test::BallImage;
    if (!orthanc_->running()) {
      return;
    }
    core::NullProgress quiet;
    const auto write = [&](const std::string& name, const std::string& id, const std::string& date,
                           core::DicomTransferSyntax syntax, WebStudy& study) {
      core::DicomWriteOptions o;
      o.syntax = syntax;
      o.instanceKey = "web" + id;
      study.studyUid = "1.2.826.0.1.3680043.10.1447.8." + id.substr(1) + "1";
      study.seriesUid = study.studyUid + ".1";
      o.attributes = {{"PatientName", name},
                      {"PatientID", id},
                      {"StudyDate", date},
                      {"AccessionNumber", "W" + id},
                      {"StudyInstanceUID", study.studyUid},
                      {"SeriesInstanceUID", study.seriesUid},
                      {"StudyDescription", "Ball phantom " + id}};
      study.files = core::writeDicomSeries(*ball_->image, folder_->path() / "sent" / id, o, quiet);
      const pacs::StoreReport r = pacs::sendFiles(webNode(), study.files, access(), quiet);
      ASSERT_EQ(r.storedCount(), study.files.size()) << r.files.front().message;
    };
    write("DOE^JANE", "P1", "20240105", core::DicomTransferSyntax::ExplicitLittleEndian, jane_);
    write("DOE^JOHN", "P2", "20250310", core::DicomTransferSyntax::ExplicitLittleEndian, john_);
    write("ROE^RICHARD", "P3", "20250601", core::DicomTransferSyntax::JpegLsLossless, richard_);
  }
  static void TearDownTestSuite() {
    delete orthanc_;
    delete ball_;
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

  static pacs::DicomNode webNode() { return orthanc_->webNode(); }
  static pacs::PacsAccess access() { return {.dimse = {}, .secret = kWebPassword}; }

  static std::vector<std::string> names(const std::vector<pacs::StudyRecord>& studies) {
    std::vector<std::string> out;
    for (const auto& s : studies) {
      out.push_back(s.patientName);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static core::VolumePtr loadRetrieved(const fs::path& folder) {
    core::NullProgress quiet;
    const core::DicomScanResult scan = core::scanDicomFolder(folder, quiet);
    const auto series = scan.allSeries();
    EXPECT_EQ(series.size(), 1u);
    return series.empty() ? nullptr : core::loadDicomSeries(*series.front(), quiet);
  }

  static bool sameAsSent(const core::VolumePtr& v) {
    return v && v->voxels().bytes() == ball_->image->voxels().bytes() &&
           std::memcmp(v->voxels().data(), ball_->image->voxels().data(), v->voxels().bytes()) == 0;
  }

  static inline test::TempDir* folder_ = nullptr;
  static inline test::OrthancServer* orthanc_ = nullptr;
  static inline test::BallImage* ball_ = nullptr;
  static inline WebStudy jane_, john_, richard_;
  core::NullProgress quiet_;
  test::TempDir tmp_;
};

std::string webErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string transferSyntaxOf(const fs::path& file) {
  // The meta header's (0002,0010), read as text: enough to tell the syntaxes apart.
  std::ifstream in(file, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  for (const char* ts : {"1.2.840.10008.1.2.4.80", "1.2.840.10008.1.2.1"}) {
    if (head.find(ts) != std::string::npos) {
      return ts;
    }
  }
  return "?";
}

}  // namespace

TEST_F(DicomWeb, SearchesLikeCFindAndPagesThroughLongAnswers) {
  const pacs::DicomNode node = webNode();
  pacs::StudyQuery q;
  q.patientName = "DOE*";
  EXPECT_EQ(names(pacs::queryStudies(node, q, access(), quiet_)),
            (std::vector<std::string>{"DOE^JANE", "DOE^JOHN"}));
  q = {};
  q.studyDate = "20250101-";
  EXPECT_EQ(names(pacs::queryStudies(node, q, access(), quiet_)),
            (std::vector<std::string>{"DOE^JOHN", "ROE^RICHARD"}));
  q = {};
  q.patientId = "P3";
  q.modality = "CT";
  const auto richard = pacs::queryStudies(node, q, access(), quiet_);
  ASSERT_EQ(richard.size(), 1u);
  EXPECT_EQ(richard[0].studyInstanceUid, richard_.studyUid);
  EXPECT_EQ(richard[0].accessionNumber, "WP3");
  EXPECT_EQ(richard[0].studyDescription, "Ball phantom P3");
  EXPECT_EQ(richard[0].modalities, std::vector<std::string>{"CT"});
  EXPECT_EQ(richard[0].instanceCount, static_cast<int>(richard_.files.size()));
  q = {};
  q.studyDescription = "Ball phantom P3";  // a space: not percent-decoded by Orthanc 1.10
  EXPECT_EQ(names(pacs::queryStudies(node, q, access(), quiet_)),
            std::vector<std::string>{"ROE^RICHARD"});
  q = {};
  q.limit = 2;
  EXPECT_EQ(pacs::queryStudies(node, q, access(), quiet_).size(), 2u);

  // One result per page: every study still comes, each once.
  const auto http = core::net::makeHttpClient();
  pacs::DicomWebClient client(node, kWebPassword, *http);
  client.pageSize = 1;
  EXPECT_EQ(names(client.findStudies({}, quiet_)),
            (std::vector<std::string>{"DOE^JANE", "DOE^JOHN", "ROE^RICHARD"}));
  const auto instances = client.findInstances(john_.studyUid, john_.seriesUid, quiet_);
  EXPECT_EQ(instances.size(), john_.files.size());

  const auto series = pacs::querySeries(node, john_.studyUid, access(), quiet_);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].seriesInstanceUid, john_.seriesUid);
  EXPECT_EQ(series[0].modality, "CT");
  EXPECT_EQ(series[0].instanceCount, static_cast<int>(john_.files.size()));
}

TEST_F(DicomWeb, RetrieveGivesTheVoxelsSentInTheSyntaxTheyWereStored) {
  for (const WebStudy* study : {&john_, &richard_}) {
    const fs::path out = tmp_.path() / study->studyUid;
    const pacs::RetrieveReport r =
        pacs::retrieveStudy(webNode(), {study->studyUid, ""}, out, access(), quiet_);
    EXPECT_EQ(r.received, study->files.size());
    EXPECT_EQ(r.files.size(), study->files.size());
    EXPECT_TRUE(r.missing.empty());
    ASSERT_FALSE(r.files.empty());
    EXPECT_EQ(r.files.front().parent_path().filename(), study->seriesUid);
    EXPECT_EQ(transferSyntaxOf(r.files.front()),
              study == &richard_ ? "1.2.840.10008.1.2.4.80" : "1.2.840.10008.1.2.1")
        << "the stored bytes, not a transcoded copy";
    EXPECT_TRUE(sameAsSent(loadRetrieved(out))) << study->studyUid;
  }
}

TEST_F(DicomWeb, ARetrieveCutByDroppedConnectionsIsFinishedByTheNextTry) {
  const fs::path out = tmp_.path() / "dropped";
  const pacs::RetrieveRequest request{jane_.studyUid, jane_.seriesUid};
  const pacs::RetrieveReport first = pacs::retrieveStudy(webNode(), request, out, access(), quiet_);
  ASSERT_EQ(first.files.size(), jane_.files.size());
  for (std::size_t i = 0; i < first.files.size(); i += 2) {  // half of it lost
    fs::remove(first.files[i]);
  }
  fs::resize_file(first.files[1], fs::file_size(first.files[1]) - 100);  // one cut short
  const std::size_t lost = (first.files.size() + 1) / 2 + 1;
  test::FaultMix mix;
  mix.resetResponse = 0.3;
  mix.cutAt = 0.5;
  test::FaultProxy proxy(orthanc_->httpBase(), mix, 7);
  pacs::DicomNode throughProxy = webNode();
  throughProxy.dicomWebUrl = proxy.url() + "/dicom-web";
  int failures = 0;
  std::size_t received = 0;
  for (int attempt = 0; attempt < 30; ++attempt) {
    try {
      const pacs::RetrieveReport r =
          pacs::retrieveStudy(throughProxy, request, out, access(), quiet_);
      received += r.received;
      EXPECT_EQ(r.files.size(), jane_.files.size());
      break;
    } catch (const core::Error& e) {
      EXPECT_EQ(e.kind(), core::ErrorKind::Network) << e.what();
      EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(proxy.port())),
                std::string::npos)
          << "names the server: " << e.what();
      ++failures;
    }
  }
  EXPECT_GT(failures, 0) << "the proxy cut some answers";
  EXPECT_GT(proxy.counts()[test::ProxyFault::ResetResponse], 0);
  EXPECT_LE(received, lost);
  EXPECT_GE(received, 1u) << "what the cut answers left missing came on the last try";
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    EXPECT_EQ(entry.is_directory() || entry.path().extension() == ".dcm", true)
        << "a cut answer leaves no file behind: " << entry.path();
  }
  EXPECT_TRUE(sameAsSent(loadRetrieved(out)));
}

TEST_F(DicomWeb, StowChecksEveryInstanceInTheAnswer) {
  const fs::path notDicom = tmp_.path() / "notes.txt";
  std::ofstream(notDicom) << "not an image";
  std::vector<fs::path> files = {john_.files[0], notDicom, john_.files[1]};
  const pacs::StoreReport r = pacs::sendFiles(webNode(), files, access(), quiet_);
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_TRUE(r.files[0].stored) << r.files[0].message;
  EXPECT_FALSE(r.files[1].stored);
  EXPECT_NE(r.files[1].message.find("not a DICOM file"), std::string::npos) << r.files[1].message;
  EXPECT_TRUE(r.files[2].stored) << r.files[2].message;
  EXPECT_EQ(orthanc_->get("/studies").size(), 3u) << "sent again: still three studies";
}

TEST_F(DicomWeb, WrongCredentialsAndAWrongBaseAreNamed) {
  pacs::PacsAccess wrong = access();
  wrong.secret = "guess";
  std::string e = webErrorOf([&] { pacs::queryStudies(webNode(), {}, wrong, quiet_); });
  EXPECT_NE(e.find("did not accept the credentials (HTTP 401)"), std::string::npos) << e;
  EXPECT_NE(e.find(webNode().dicomWebUrl), std::string::npos) << e;

  pacs::DicomNode anonymous = webNode();
  anonymous.auth = pacs::WebAuth::None;
  e = webErrorOf([&] { pacs::verifyNode(anonymous, {}, quiet_); });
  EXPECT_NE(e.find("asks for credentials"), std::string::npos) << e;

  pacs::DicomNode notTheRoot = webNode();
  notTheRoot.dicomWebUrl = orthanc_->httpBase() + "/dicomweb";
  e = webErrorOf([&] { pacs::verifyNode(notTheRoot, access(), quiet_); });
  EXPECT_NE(e.find("the root of its DICOMweb routes"), std::string::npos) << e;

  EXPECT_GT(pacs::verifyNode(webNode(), access(), quiet_), 0.0);
}

TEST_F(DicomWeb, TheCliFindsAndGetsOverDicomWeb) {
  const fs::path password = tmp_.path() / "password";
  std::ofstream(password) << kWebPassword << "\n";
  const std::string node = " --dicomweb " + webNode().dicomWebUrl + " --user " + kWebUser +
                           " --password-file '" + password.string() + "'";
  const std::string cli = std::string(DELINEATE_CLI) + " pacs ";
  std::string out;
  ASSERT_EQ(test::runCommand(cli + "find" + node + " --patient 'ROE*' --json 2>/dev/null", &out), 0)
      << out;
  const nlohmann::json studies = nlohmann::json::parse(out);
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0]["study_instance_uid"], richard_.studyUid);
  const fs::path folder = tmp_.path() / "cli";
  ASSERT_EQ(test::runCommand(cli + "get" + node + " --study " + richard_.studyUid + " --out '" +
                                 folder.string() + "' 2>/dev/null",
                             &out),
            0)
      << out;
  EXPECT_EQ(nlohmann::json::parse(out)["received"], richard_.files.size());
  EXPECT_TRUE(sameAsSent(loadRetrieved(folder)));
  EXPECT_EQ(test::runCommand(cli + "find --dicomweb " + webNode().dicomWebUrl + " 2>&1", &out), 1);
  EXPECT_NE(out.find("asks for credentials"), std::string::npos) << out;
}
