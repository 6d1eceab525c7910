// delineate-cli upload as a data manager runs it: killed in the middle of a queue (SIGKILL: no
// chance to clean up) and started again, it resumes and delivers the rest, nothing twice; a lint
// run lists what is wrong without sending; --msd writes a dataset instead.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "AiTestSupport.h"
#include "FaultProxy.h"
#include "RunCommand.h"
#include "core/Error.h"
#include "core/UploadTestSupport.h"
#include "core/upload/UploadQueue.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;
namespace up = core::upload;

// Writes `n` labelled cases (image + NAME_labels.nii.gz with its segment table) into `folder`.
void writeCases(const fs::path& folder, int first, int n) {
  fs::create_directories(folder);
  for (int seed = first; seed < first + n; ++seed) {
    const auto image = test::boxImage(seed);
    const std::string name = "patient" + std::to_string(seed);
    core::writeVolumeFile(*image, folder / (name + ".nii.gz"));
    core::writeLabelMapFiles(test::boxLabel(*image, 1, "spleen"),
                             folder / (name + "_labels.nii.gz"));
  }
}

int countDone(const fs::path& queue) {
  int done = 0;
  for (const up::UploadItem& i : up::UploadQueue(queue).items()) {
    done += i.state == up::UploadState::Done ? 1 : 0;
  }
  return done;
}

TEST(UploadCli, KilledMidQueueResumesWhereItStopped) {
  test::TempDir dir;
  writeCases(dir / "cases", 1, 4);
  test::LocalServer server(dir / "datastore", {}, std::nullopt, {{"spleen", 1}});
  test::FaultMix slow;
  slow.latency = 1.0;
  slow.latencyMin = std::chrono::milliseconds(150);
  slow.latencyMax = std::chrono::milliseconds(200);
  test::FaultProxy proxy(server.url(), slow, 1);
  const fs::path queue = dir / "queue";

  // Everything the child needs is made before fork: between fork and exec only async-signal-safe
  // calls (this process has server and proxy threads that may hold locks, e.g. stdio's).
  const std::string url = proxy.url();
  const std::string queueArg = queue.string();
  const std::string casesArg = (dir / "cases").string();
  const int log = ::open((dir / "first.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(log, 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
    ::execl(DELINEATE_CLI, DELINEATE_CLI, "upload", "--server", url.c_str(), "--queue",
            queueArg.c_str(), "--dataset", casesArg.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(log);
  // Kill it once a case is delivered and others are not.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int done = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(queue / "items")) {
      try {
        done = countDone(queue);
      } catch (const core::Error&) {
      }
    }
    if (done >= 1) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  std::ifstream firstLog(dir / "first.log");
  const std::string firstOutput((std::istreambuf_iterator<char>(firstLog)), {});
  ASSERT_TRUE(WIFSIGNALED(status)) << "the first run ended by itself: " << firstOutput;
  ASSERT_GE(done, 1) << firstOutput;
  const int doneAtKill = countDone(queue);
  ASSERT_LT(doneAtKill, 4) << "killed too late to test resuming";

  // A request the killed process had handed to the network may still be on its way (the proxy
  // holds each for up to 200 ms): the restart comes after it has landed, as a person's would.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::string output;
  const int rc = test::runCommand(std::string(DELINEATE_CLI) + " upload --server " + server.url() +
                                      " --queue " + queue.string(),
                                  &output);
  EXPECT_EQ(rc, 0) << output;
  EXPECT_NE(output.find("\"delivered\": " + std::to_string(4 - doneAtKill)), std::string::npos)
      << output;
  EXPECT_EQ(countDone(queue), 4);
  for (const up::UploadItem& item : up::UploadQueue(queue).items()) {
    const auto image = server.app().datastore().imageInfo(item.id);
    const auto label = server.app().datastore().labelInfo(item.id, "final");
    ASSERT_TRUE(image && label) << item.id;
    EXPECT_EQ(image->value("sha256", ""), item.image.sha256);
    EXPECT_EQ(label->value("sha256", ""), item.label.sha256);
    // A file the killed run had sent may go once more only if its answer never came back and
    // the server had not stored it; stored twice it must not be.
    EXPECT_EQ(image->value("revision", 0), 1) << item.id;
    EXPECT_EQ(label->value("revision", 0), 1) << item.id;
  }
  EXPECT_EQ(server.app().datastore().stats()["total"], 4);
}

TEST(UploadCli, LintListsProblemsAndSendsNothing) {
  test::TempDir dir;
  writeCases(dir / "cases", 1, 1);
  const auto image = test::boxImage(1);
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "kidney"),
                           dir / "cases" / "patient1_labels.nii.gz");
  test::LocalServer server(dir / "datastore", {}, std::nullopt, {{"spleen", 1}});
  std::string output;
  const int rc = test::runCommand(std::string(DELINEATE_CLI) + " upload --lint --server " +
                                      server.url() + " --dataset " + (dir / "cases").string(),
                                  &output);
  EXPECT_EQ(rc, 1) << output;
  EXPECT_NE(output.find("segment 'kidney' is not among the server's labels (1 spleen)"),
            std::string::npos)
      << output;
  EXPECT_EQ(server.app().datastore().stats()["total"], 0);
  EXPECT_EQ(output.find("patient1\""), std::string::npos) << "ids do not carry file names";
}

TEST(UploadCli, MsdExportWritesTheDataset) {
  test::TempDir dir;
  writeCases(dir / "cases", 1, 2);
  std::string output;
  const int rc = test::runCommand(std::string(DELINEATE_CLI) + " upload --msd " +
                                      (dir / "Task09_Spleen").string() + " --modality CT" +
                                      " --dataset " + (dir / "cases").string(),
                                  &output);
  ASSERT_EQ(rc, 0) << output;
  std::ifstream in(dir / "Task09_Spleen" / "dataset.json");
  const auto index = nlohmann::json::parse(in);
  EXPECT_EQ(index["numTraining"], 2);
  EXPECT_EQ(index["modality"]["0"], "CT");
  EXPECT_EQ(index["labels"]["1"], "spleen");
  for (const auto& entry : fs::directory_iterator(dir / "Task09_Spleen" / "imagesTr")) {
    EXPECT_EQ(entry.path().filename().string().find("patient"), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace delineate
