// DIMSE to a real PACS (Debian's Orthanc, started by the test on 127.0.0.1): C-ECHO verifies a
// node and names it when it refuses (wrong AE title, unknown caller, nothing listening, a node
// that never answers); C-STORE sends a series and the PACS holds every instance, once even when
// sent twice; a file that is not DICOM is reported and the rest still go; Cancel stops; to a
// research archive only de-identified copies go, and an image with burned-in text stays home.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "AiTestSupport.h"
#include "OrthancServer.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/deid/ReidentificationMap.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpServer.h"
#include "core/pacs/DeidentifiedStore.h"
#include "core/pacs/DicomNetwork.h"

using namespace delineate;
using core::pacs::DicomNode;

namespace {

#define REQUIRE_ORTHANC()                                                 \
  if (!test::OrthancServer::installed()) {                                \
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)"; \
  }

std::string errorOf(const std::function<void()>& f, core::ErrorKind* kind = nullptr) {
  try {
    f();
  } catch (const core::Error& e) {
    if (kind != nullptr) {
      *kind = e.kind();
    }
    return e.what();
  }
  return "(no error)";
}

std::vector<std::filesystem::path> writeSeries(const std::filesystem::path& folder) {
  test::BallImage ball;
  core::NullProgress progress;
  return core::writeDicomSeries(*ball.image, folder, {}, progress);
}

// A TCP port that accepts connections and never says a word.
class SilentListener {
 public:
  SilentListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 4);
    socklen_t n = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &n);
    port_ = ntohs(a.sin_port);
  }
  ~SilentListener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

class PacsClient : public ::testing::Test {
 protected:
  core::NullProgress progress_;
  test::TempDir dir_;
};

}  // namespace

TEST_F(PacsClient, EchoVerifiesTheNodeAndNamesItWhenItRefuses) {
  REQUIRE_ORTHANC();
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  const DicomNode node = pacs.node();
  const double ms = core::pacs::echo(node, {}, progress_);
  EXPECT_GT(ms, 0);
  EXPECT_LT(ms, 5000);

  DicomNode wrongTitle = node;
  wrongTitle.aeTitle = "NOTTHEPACS";
  core::ErrorKind kind{};
  std::string e = errorOf([&] { core::pacs::echo(wrongTitle, {}, progress_); }, &kind);
  EXPECT_EQ(kind, core::ErrorKind::Network);
  EXPECT_NE(e.find("NOTTHEPACS@127.0.0.1:" + std::to_string(node.port)), std::string::npos) << e;
  EXPECT_NE(e.find("AE title"), std::string::npos) << e;

  core::pacs::DicomNetworkOptions stranger;
  stranger.callingAeTitle = "STRANGER";
  e = errorOf([&] { core::pacs::echo(node, stranger, progress_); });
  EXPECT_NE(e.find("Test PACS"), std::string::npos) << e;

  DicomNode closed = node;
  closed.port = core::net::freeLocalPort();
  e = errorOf([&] { core::pacs::echo(closed, {}, progress_); }, &kind);
  EXPECT_EQ(kind, core::ErrorKind::Network);
  EXPECT_NE(e.find(":" + std::to_string(closed.port)), std::string::npos) << e;

  DicomNode badTitle = node;
  badTitle.aeTitle = "A\\B";
  e = errorOf([&] { core::pacs::echo(badTitle, {}, progress_); }, &kind);
  EXPECT_EQ(kind, core::ErrorKind::InvalidInput);
  EXPECT_NE(e.find("backslash"), std::string::npos) << e;
}

TEST_F(PacsClient, ANodeThatNeverAnswersFailsWithinTheTimeout) {
  SilentListener silent;
  const DicomNode node{"Silent", "SILENT", "127.0.0.1", silent.port()};
  core::pacs::DicomNetworkOptions options;
  options.responseTimeout = std::chrono::seconds(2);
  const auto start = std::chrono::steady_clock::now();
  core::ErrorKind kind{};
  const std::string e = errorOf([&] { core::pacs::echo(node, options, progress_); }, &kind);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(kind, core::ErrorKind::Network);
  EXPECT_NE(e.find("Silent (SILENT@127.0.0.1"), std::string::npos) << e;
  EXPECT_LT(seconds, 10) << "bounded by the 2 s response timeout";
}

TEST_F(PacsClient, StoreSendsTheSeriesAndThePacsHoldsEachInstanceOnce) {
  REQUIRE_ORTHANC();
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  std::vector<std::filesystem::path> files = writeSeries(dir_ / "series");
  ASSERT_GT(files.size(), 10u);
  const std::filesystem::path text = dir_ / "notes.txt";
  std::ofstream(text) << "not a DICOM file";
  std::vector<std::filesystem::path> all = files;
  all.insert(all.begin() + 3, text);

  const core::pacs::StoreReport report = core::pacs::store(pacs.node(), all, {}, progress_);
  ASSERT_EQ(report.files.size(), all.size());
  EXPECT_EQ(report.storedCount(), files.size());
  EXPECT_EQ(report.failedCount(), 1u);
  EXPECT_EQ(report.files[3].file, text);
  EXPECT_FALSE(report.files[3].stored);
  EXPECT_NE(report.files[3].message.find("not a readable DICOM file"), std::string::npos)
      << report.files[3].message;

  std::set<std::string> sent;
  for (const auto& f : files) {
    sent.insert(core::readDicomHeader(f.string()).sopInstanceUid);
  }
  auto held = [&] {
    std::set<std::string> uids;
    for (const auto& id : pacs.get("/instances")) {
      uids.insert(pacs.get("/instances/" + id.get<std::string>() + "/simplified-tags")
                      .at("SOPInstanceUID")
                      .get<std::string>());
    }
    return uids;
  };
  EXPECT_EQ(held(), sent);

  // Sent again (a retry after a dropped network): the PACS still holds each instance once.
  const core::pacs::StoreReport again = core::pacs::store(pacs.node(), files, {}, progress_);
  EXPECT_EQ(again.storedCount(), files.size());
  EXPECT_EQ(pacs.get("/instances").size(), files.size());
}

TEST_F(PacsClient, CancelStopsBetweenFiles) {
  REQUIRE_ORTHANC();
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  const std::vector<std::filesystem::path> files = writeSeries(dir_ / "series");
  core::CancelToken token;
  token.cancel();
  core::NullProgress cancelled(token);
  EXPECT_THROW(core::pacs::store(pacs.node(), files, {}, cancelled), core::CancelledError);
  EXPECT_EQ(pacs.get("/instances").size(), 0u);
}

TEST_F(PacsClient, ToAResearchArchiveOnlyDeidentifiedCopiesAreSentAndBurnedInTextStaysHome) {
  REQUIRE_ORTHANC();
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  test::BallImage ball;
  core::DicomWriteOptions identified;
  identified.attributes = {{"PatientName", "Doe^Jane"}, {"PatientID", "MRN-0077"}};
  const std::vector<std::filesystem::path> files =
      core::writeDicomSeries(*ball.image, dir_ / "series", identified, progress_);
  identified.attributes.emplace_back("BurnedInAnnotation", "YES");
  const std::filesystem::path burnedIn =
      core::writeDicomSeries(*ball.image, dir_ / "burned", identified, progress_).front();
  std::vector<std::filesystem::path> all = files;
  all.push_back(burnedIn);

  core::deid::ReidentificationMap map(dir_ / "reid" / "map.json");
  const core::pacs::StoreReport report =
      core::pacs::storeDeidentified(pacs.node(), all, {}, {}, map, dir_ / "work", progress_);
  ASSERT_EQ(report.files.size(), all.size());
  EXPECT_EQ(report.storedCount(), files.size());
  const auto refused = std::find_if(report.files.begin(), report.files.end(),
                                    [](const core::pacs::StoredFile& f) { return !f.stored; });
  ASSERT_NE(refused, report.files.end());
  EXPECT_EQ(refused->file, burnedIn) << "the report names the user's file, not a copy";
  EXPECT_NE(refused->message.find("held back"), std::string::npos) << refused->message;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "reid" / "map.json")) << "saved before sending";
  EXPECT_FALSE(std::filesystem::exists(dir_ / "work" / "deidentified")) << "copies removed";

  std::set<std::string> original;
  for (const auto& f : files) {
    original.insert(core::readDicomHeader(f.string()).sopInstanceUid);
  }
  const nlohmann::json ids = pacs.get("/instances");
  ASSERT_EQ(ids.size(), files.size());
  for (const auto& id : ids) {
    const nlohmann::json tags =
        pacs.get("/instances/" + id.get<std::string>() + "/simplified-tags");
    EXPECT_EQ(original.count(tags.at("SOPInstanceUID").get<std::string>()), 0u);
    EXPECT_EQ(tags.at("PatientID").get<std::string>().rfind("DLN-", 0), 0u) << tags.dump();
    EXPECT_EQ(tags.dump().find("Doe"), std::string::npos);
    EXPECT_EQ(tags.dump().find("MRN-0077"), std::string::npos);
    EXPECT_EQ(tags.value("PatientIdentityRemoved", ""), "YES");
  }
  EXPECT_EQ(pacs.get("/patients").size(), 1u) << "one pseudonymous patient";
}
