// Retrieve by C-MOVE from a real PACS (Debian's Orthanc on 127.0.0.1, told where this
// workstation's Storage SCP listens): the voxels that were sent come back; a second retrieve
// moves only what is missing; a PACS that does not know the move destination, and a port that
// cannot be opened, are named; and `delineate-cli pacs get --move-port`.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "AiTestSupport.h"
#include "OrthancServer.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpServer.h"
#include "core/pacs/DicomGet.h"
#include "core/pacs/DicomNetwork.h"

using namespace delineate;
namespace fs = std::filesystem;
namespace pacs = core::pacs;

namespace {

constexpr const char* kMoveStudy = "1.2.826.0.1.3680043.10.1447.7.1";
constexpr const char* kMoveSeries = "1.2.826.0.1.3680043.10.1447.7.1.1";

// One Orthanc for the suite (started by its first test), holding one series of the ball image.
class PacsMove : public ::testing::Test {
 protected:
  static void startPacs() {
    folder_ = new test::TempDir;
    ball_ = new test::BallImage;
    movePort_ = core::net::freeLocalPort();
    test::OrthancOptions o;
    o.callerPort = movePort_;
    o.anyCallerMayQuery = true;
    orthanc_ = new test::OrthancServer(folder_->path() / "orthanc", o);
    if (!orthanc_->running()) {
      return;
    }
    core::NullProgress quiet;
    core::DicomWriteOptions w;
    w.attributes = {{"PatientName", "MOVE^ME"},
                    {"StudyInstanceUID", kMoveStudy},
                    {"SeriesInstanceUID", kMoveSeries}};
    w.instanceKey = "move";
    files_ = core::writeDicomSeries(*ball_->image, folder_->path() / "sent", w, quiet);
    ASSERT_EQ(pacs::store(orthanc_->node(), files_, {}, quiet).storedCount(), files_.size());
  }
  static void TearDownTestSuite() {
    delete orthanc_;
    delete ball_;
    delete folder_;
    orthanc_ = nullptr;
    folder_ = nullptr;
  }
  void SetUp() override {
    if (!test::OrthancServer::installed()) {
      GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
    }
    if (folder_ == nullptr) {
      ASSERT_NO_FATAL_FAILURE(startPacs());
    }
    ASSERT_TRUE(orthanc_ != nullptr && orthanc_->running());
    options_.movePort = movePort_;
  }

  core::VolumePtr loadMoved(const fs::path& folder) {
    const core::DicomScanResult scan = core::scanDicomFolder(folder, quiet_);
    const auto series = scan.allSeries();
    EXPECT_EQ(series.size(), 1u);
    return series.empty() ? nullptr : core::loadDicomSeries(*series.front(), quiet_);
  }

  static bool sameAsBall(const core::VolumePtr& v) {
    return v && v->voxels().bytes() == ball_->image->voxels().bytes() &&
           std::memcmp(v->voxels().data(), ball_->image->voxels().data(), v->voxels().bytes()) == 0;
  }

  static inline test::TempDir* folder_ = nullptr;
  static inline test::BallImage* ball_ = nullptr;
  static inline test::OrthancServer* orthanc_ = nullptr;
  static inline int movePort_ = 0;
  static inline std::vector<fs::path> files_;
  test::TempDir tmp_;
  core::NullProgress quiet_;
  pacs::DicomNetworkOptions options_;
};

}  // namespace

TEST_F(PacsMove, TheVoxelsComeBackAndASecondMoveFetchesOnlyWhatIsMissing) {
  const fs::path out = tmp_.path() / "moved";
  const pacs::RetrieveReport first =
      pacs::retrieveByMove(orthanc_->node(), {kMoveStudy, ""}, out, options_, quiet_);
  EXPECT_EQ(first.received, files_.size());
  ASSERT_EQ(first.files.size(), files_.size());
  EXPECT_TRUE(first.missing.empty());
  EXPECT_EQ(first.files.front().parent_path().filename(), kMoveSeries);
  EXPECT_TRUE(sameAsBall(loadMoved(out)));
  fs::remove(first.files[1]);
  fs::remove(first.files[4]);
  const pacs::RetrieveReport second =
      pacs::retrieveByMove(orthanc_->node(), {kMoveStudy, kMoveSeries}, out, options_, quiet_);
  EXPECT_EQ(second.received, 2u);
  EXPECT_EQ(second.alreadyLocal, files_.size() - 2);
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    EXPECT_TRUE(e.is_directory() || e.path().extension() == ".dcm") << e.path();
  }
  EXPECT_TRUE(sameAsBall(loadMoved(out)));
}

TEST_F(PacsMove, APacsThatDoesNotKnowTheDestinationIsNamed) {
  pacs::DicomNetworkOptions stranger = options_;
  stranger.callingAeTitle = "STRANGER";
  try {
    pacs::retrieveByMove(orthanc_->node(), {kMoveStudy, ""}, tmp_.path() / "no", stranger, quiet_);
    ADD_FAILURE() << "moved to an unknown destination";
  } catch (const core::Error& e) {
    const std::string what = e.what();
    // A801 by the standard; Orthanc 1.10 answers C000. Either way the destination is named.
    EXPECT_NE(what.find("does not know the move destination STRANGER"), std::string::npos) << what;
    EXPECT_NE(what.find("port " + std::to_string(movePort_)), std::string::npos) << what;
    EXPECT_NE(what.find(orthanc_->node().label()), std::string::npos) << what;
  }
}

TEST_F(PacsMove, APortThatCannotBeOpenedIsNamed) {
  const int taken = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(static_cast<std::uint16_t>(movePort_));
  ASSERT_EQ(::bind(taken, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(taken, 1), 0);
  try {
    pacs::retrieveByMove(orthanc_->node(), {kMoveStudy, ""}, tmp_.path() / "no", options_, quiet_);
    ADD_FAILURE() << "listened on a taken port";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("port " + std::to_string(movePort_)), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot listen"), std::string::npos) << e.what();
  }
  ::close(taken);
}

TEST_F(PacsMove, TheCliMovesWithMovePort) {
  const fs::path out = tmp_.path() / "cli";
  std::string printed;
  ASSERT_EQ(test::runCommand(std::string(DELINEATE_CLI) + " pacs get --dimse " +
                                 test::OrthancServer::kAeTitle +
                                 "@127.0.0.1:" + std::to_string(orthanc_->dicomPort()) +
                                 " --move-port " + std::to_string(movePort_) + " --study " +
                                 kMoveStudy + " --out '" + out.string() + "' 2>/dev/null",
                             &printed),
            0)
      << printed;
  EXPECT_EQ(nlohmann::json::parse(printed)["received"], files_.size());
  EXPECT_TRUE(sameAsBall(loadMoved(out)));
}
