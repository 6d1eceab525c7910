// The dataset upload queue against delineate-server over 127.0.0.1, directly and through a proxy
// that resets connections at random byte offsets, answers 5xx and 429 with Retry-After, and adds
// latency: every case arrives, verified by checksum, and none is stored twice.
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>

#include "AiTestSupport.h"
#include "FaultProxy.h"
#include "core/UploadTestSupport.h"
#include "core/upload/CaseQueueing.h"
#include "core/upload/UploadWorker.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;
namespace up = core::upload;
using nlohmann::json;

// A labelled case of `seed` (its own image, so its own id), checked against a one-label schema.
up::PreparedCase labelledCase(const test::TempDir& dir, int seed) {
  const auto image = test::boxImage(seed);
  const fs::path file = dir / ("case" + std::to_string(seed) + ".nii.gz");
  core::writeVolumeFile(*image, file);
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "spleen"),
                           dir / ("case" + std::to_string(seed) + "_labels.nii.gz"));
  up::PrepareOptions options;
  options.schema = {{"spleen", 1, false}};
  core::NullProgress progress;
  up::PreparedCase c = up::prepareCase(
      {file, {dir / ("case" + std::to_string(seed) + "_labels.nii.gz")}}, options, progress);
  EXPECT_TRUE(c.sendable());
  return c;
}

plugins::MonaiServerConfig clientOf(const std::string& url) {
  plugins::MonaiServerConfig c;
  c.url = url;
  c.connectTimeout = std::chrono::milliseconds(2000);
  c.infoTimeout = std::chrono::milliseconds(5000);
  c.inferTimeout = std::chrono::milliseconds(10000);
  return c;
}

up::UploadRunOptions fastRetries(std::uint64_t seed) {
  up::UploadRunOptions o;
  o.retry.baseSeconds = 0.005;
  o.retry.capSeconds = 0.05;
  o.seed = seed;
  return o;
}

// What the server holds of each queued case: present with our checksums, stored exactly once.
void expectDeliveredOnce(const up::UploadQueue& queue, server::MonaiServer& server,
                         const std::string& context) {
  for (const up::UploadItem& item : queue.items()) {
    EXPECT_EQ(item.state, up::UploadState::Done)
        << context << " " << item.id << " " << item.lastError;
    const auto image = server.datastore().imageInfo(item.id);
    const auto label = server.datastore().labelInfo(item.id, "final");
    ASSERT_TRUE(image && label) << context << " lost: " << item.id;
    EXPECT_EQ(image->value("sha256", ""), item.image.sha256) << context << " " << item.id;
    EXPECT_EQ(label->value("sha256", ""), item.label.sha256) << context << " " << item.id;
    EXPECT_EQ(image->value("revision", 0), 1) << context << " image stored twice: " << item.id;
    EXPECT_EQ(label->value("revision", 0), 1) << context << " label stored twice: " << item.id;
    EXPECT_EQ((*label)["label_info"], item.labelInfo) << context;
  }
}

TEST(UploadWorker, DeliversEachCaseWithItsLabelAndVerifiesIt) {
  test::TempDir dir;
  test::LocalServer server(dir / "datastore");
  up::UploadQueue queue(dir / "queue");
  for (int seed : {1, 2, 3}) {
    up::enqueuePrepared(queue, labelledCase(dir, seed));
  }
  plugins::MonaiLabelBackend backend(clientOf(server.url()));
  up::UploadWorker worker(queue, backend, fastRetries(1));
  core::NullProgress progress;
  const up::UploadRunSummary s = worker.run(progress);
  EXPECT_EQ(s.delivered, 3);
  EXPECT_EQ(s.filesSent, 6);
  EXPECT_EQ(s.pending, 0);
  expectDeliveredOnce(queue, server.app(), "direct");
  EXPECT_EQ(server.app().datastore().stats()["completed"], 3);

  // Queued again after a restart: nothing goes twice.
  for (int seed : {1, 2, 3}) {
    EXPECT_EQ(up::enqueuePrepared(queue, labelledCase(dir, seed)), up::EnqueueOutcome::Unchanged);
  }
  EXPECT_EQ(worker.run(progress).filesSent, 0);
}

TEST(UploadWorker, AnAnswerLostAfterTheServerStoredIsNotSentAgain) {
  test::TempDir dir;
  test::LocalServer server(dir / "datastore");
  test::FaultMix mix;
  mix.resetResponse = 0.4;
  test::FaultProxy proxy(server.url(), mix, 11);
  up::UploadQueue queue(dir / "queue");
  for (int seed : {4, 5, 6}) {
    up::enqueuePrepared(queue, labelledCase(dir, seed));
  }
  plugins::MonaiLabelBackend backend(clientOf(proxy.url()));
  up::UploadWorker worker(queue, backend, fastRetries(2));
  core::NullProgress progress;
  const up::UploadRunSummary s = worker.run(progress);
  EXPECT_EQ(s.delivered, 3);
  EXPECT_GT(proxy.counts()[test::ProxyFault::ResetResponse], 0);
  EXPECT_GT(s.retries, 0);
  expectDeliveredOnce(queue, server.app(), "lost answers");
}

TEST(UploadWorker, RefusalsARetryCannotFixFailTheItemWithTheServersReason) {
  test::TempDir dir;
  test::LocalServer server(dir / "datastore");
  up::UploadQueue queue(dir / "queue");
  up::PreparedCase c = labelledCase(dir, 7);
  up::enqueuePrepared(queue, c, "bad tag/with slash?");
  // The label goes to an image the server does not hold: 404, not worth a retry.
  up::UploadItem item = *queue.item(c.id);
  item.image.stored = true;
  queue.save(item);
  plugins::MonaiLabelBackend backend(clientOf(server.url()));
  up::UploadWorker worker(queue, backend, fastRetries(3));
  core::NullProgress progress;
  const up::UploadRunSummary s = worker.run(progress);
  EXPECT_EQ(s.failed, 1);
  EXPECT_EQ(s.retries, 0);
  const up::UploadItem failed = *queue.item(c.id);
  EXPECT_EQ(failed.state, up::UploadState::Failed);
  EXPECT_NE(failed.lastError.find(server.url()), std::string::npos) << failed.lastError;
  EXPECT_NE(failed.lastError.find("404"), std::string::npos) << failed.lastError;
}

TEST(UploadWorker, AServerThatIsGoneLeavesTheQueuePendingForLater) {
  test::TempDir dir;
  up::UploadQueue queue(dir / "queue");
  up::enqueuePrepared(queue, labelledCase(dir, 8));
  plugins::MonaiLabelBackend backend(
      clientOf("http://127.0.0.1:" + std::to_string(core::net::freeLocalPort())));
  up::UploadRunOptions options = fastRetries(4);
  options.giveUpAfterSeconds = 0.3;
  up::UploadWorker worker(queue, backend, options);
  core::NullProgress progress;
  const up::UploadRunSummary s = worker.run(progress);
  EXPECT_EQ(s.pending, 1);
  EXPECT_GT(s.retries, 0);
  EXPECT_NE(s.stoppedBecause.find("no item was delivered"), std::string::npos) << s.stoppedBecause;
  const up::UploadItem item = *queue.item(queue.items().at(0).id);
  EXPECT_EQ(item.state, up::UploadState::Pending);
  EXPECT_NE(item.lastError.find("127.0.0.1"), std::string::npos) << item.lastError;

  // The server comes back: the same queue delivers.
  test::LocalServer server(dir / "datastore");
  plugins::MonaiLabelBackend back(clientOf(server.url()));
  up::UploadItem now = item;
  now.nextAttemptUnix = 0;
  queue.save(now);
  up::UploadWorker again(queue, back, fastRetries(5));
  EXPECT_EQ(again.run(progress).delivered, 1);
  expectDeliveredOnce(queue, server.app(), "after the outage");
}

TEST(UploadWorker, PausedQueueSendsNothingAndASecondSenderIsRefused) {
  test::TempDir dir;
  test::LocalServer server(dir / "datastore");
  up::UploadQueue queue(dir / "queue");
  up::enqueuePrepared(queue, labelledCase(dir, 9));
  queue.setPaused(true);
  plugins::MonaiLabelBackend backend(clientOf(server.url()));
  up::UploadWorker worker(queue, backend, fastRetries(6));
  core::NullProgress progress;
  const up::UploadRunSummary s = worker.run(progress);
  EXPECT_TRUE(s.paused);
  EXPECT_EQ(s.filesSent, 0);
  queue.setPaused(false);
  const auto held = queue.tryLockForSending();
  EXPECT_THROW(worker.run(progress), core::Error);
}

// The acceptance run: 100 uploads of 3 cases each through a proxy that resets
// connections at random byte offsets (requests and answers), answers 5xx and 429 with
// Retry-After, and delays requests; 0 lost and 0 stored twice.
TEST(UploadWorker, HundredRunsThroughAFaultyNetworkLoseNothingAndDuplicateNothing) {
  test::TempDir dir;
  test::LocalServer server(dir / "datastore");
  test::FaultMix mix;
  mix.resetRequest = 0.12;
  mix.resetResponse = 0.12;
  mix.serverError = 0.08;
  mix.tooManyRequests = 0.01;
  mix.latency = 0.1;
  mix.latencyMin = std::chrono::milliseconds(1);
  mix.latencyMax = std::chrono::milliseconds(10);
  mix.retryAfterSeconds = 1;
  std::array<int, test::kProxyFaultKinds> faults{};
  int delivered = 0;
  std::set<std::string> ids;
  std::mutex mutex;
  // Four uploaders at a time (each run its own proxy, queue and client; one server), so that the
  // Retry-After waits overlap.
  auto runs = [&](int first) {
    for (int run = first; run < 100 && !HasFailure(); run += 4) {
      test::TempDir runDir;
      test::FaultProxy proxy(server.url(), mix, static_cast<std::uint32_t>(1000 + run));
      up::UploadQueue queue(runDir / "queue");
      std::vector<std::string> runIds;
      for (int n = 0; n < 3; ++n) {
        const up::PreparedCase c = labelledCase(runDir, 100 + run * 3 + n);
        runIds.push_back(c.id);
        up::enqueuePrepared(queue, c);
      }
      plugins::MonaiLabelBackend backend(clientOf(proxy.url()));
      up::UploadWorker worker(queue, backend, fastRetries(static_cast<std::uint64_t>(run)));
      core::NullProgress progress;
      const int n = worker.run(progress).delivered;
      expectDeliveredOnce(queue, server.app(), "run " + std::to_string(run));
      const test::FaultCounts counts = proxy.counts();
      std::lock_guard lock(mutex);
      delivered += n;
      ids.insert(runIds.begin(), runIds.end());
      for (std::size_t k = 0; k < faults.size(); ++k) {
        faults[k] += counts.injected[k];
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back(runs, t);
  }
  for (std::thread& t : threads) {
    t.join();
  }
  EXPECT_EQ(delivered, 300);
  EXPECT_EQ(ids.size(), 300u);
  EXPECT_EQ(server.app().datastore().stats()["total"], 300);
  EXPECT_EQ(server.app().datastore().stats()["completed"], 300);
  // The faults did happen (counts for the closing note's figures).
  for (test::ProxyFault f : {test::ProxyFault::ResetRequest, test::ProxyFault::ResetResponse,
                             test::ProxyFault::ServerError, test::ProxyFault::TooManyRequests}) {
    EXPECT_GT(faults[static_cast<std::size_t>(f)], 0) << test::toString(f);
  }
  std::printf("faults injected: reset-request %d, reset-response %d, 5xx %d, 429 %d, latency %d\n",
              faults[2], faults[3], faults[4], faults[5], faults[1]);
}

}  // namespace
}  // namespace delineate
