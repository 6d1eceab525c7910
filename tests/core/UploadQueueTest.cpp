// The persistent upload queue: what a crash, a second enqueue of the same case, a changed label,
// a pause or a second sender do to it; and the retry delays.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "FileSizeLimit.h"
#include "TempDir.h"
#include "UploadTestSupport.h"
#include "core/Error.h"
#include "core/upload/CaseQueueing.h"
#include "core/upload/RetryPolicy.h"
#include "core/upload/UploadQueue.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;
using core::upload::EnqueueOutcome;
using core::upload::UploadItem;
using core::upload::UploadQueue;
using core::upload::UploadState;

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

UploadItem item(const std::string& id) {
  UploadItem i;
  i.id = id;
  i.labelInfo = {{{"name", "spleen"}, {"idx", 1}}};
  return i;
}

TEST(UploadQueue, KeepsItemsAcrossReopeningAndDropsHalfStagedOnes) {
  test::TempDir dir;
  {
    UploadQueue queue(dir / "q");
    writeText(dir / "a.nii.gz", "image bytes");
    writeText(dir / "b.nii.gz", "label bytes");
    EXPECT_EQ(queue.enqueue(item("case-1"), dir / "a.nii.gz", dir / "b.nii.gz"),
              EnqueueOutcome::Added);
    EXPECT_FALSE(fs::exists(dir / "a.nii.gz")) << "the staged file moves into the queue";
  }
  // What a crash in the middle of staging leaves behind (the process is gone), beside what a
  // process still queueing is writing (this one).
  fs::create_directories(dir / "q" / "items" / ".staging-case-2-999999999-0");
  fs::create_directories(dir / "q" / "incoming" / "case-2-999999999-0");
  const std::string live = ".staging-case-4-" + std::to_string(::getpid()) + "-0";
  fs::create_directories(dir / "q" / "items" / live);
  fs::create_directories(dir / "q" / "items" / "case-3");
  UploadQueue reopened(dir / "q");
  EXPECT_TRUE(fs::exists(dir / "q" / "items" / live)) << "another process's staging is left alone";
  EXPECT_FALSE(fs::exists(dir / "q" / "incoming" / "case-2-999999999-0"));
  const auto items = reopened.items();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].id, "case-1");
  EXPECT_EQ(items[0].state, UploadState::Pending);
  EXPECT_EQ(items[0].image.size, 11u);
  EXPECT_EQ(items[0].image.sha256.size(), 64u);
  EXPECT_FALSE(fs::exists(dir / "q" / "items" / ".staging-case-2-999999999-0"));
  EXPECT_FALSE(fs::exists(dir / "q" / "items" / "case-3"));
  EXPECT_EQ(reopened.counts().pending, 1);
  EXPECT_EQ(reopened.counts().pendingBytes, 22u);
}

TEST(UploadQueue, SameBytesTwiceIsOneItemAndAChangedLabelReplacesOnlyTheLabel) {
  test::TempDir dir;
  UploadQueue queue(dir / "q");
  writeText(dir / "a.nii.gz", "image");
  writeText(dir / "b.nii.gz", "label v1");
  ASSERT_EQ(queue.enqueue(item("case-1"), dir / "a.nii.gz", dir / "b.nii.gz"),
            EnqueueOutcome::Added);
  UploadItem sent = *queue.item("case-1");
  sent.image.stored = true;
  sent.label.stored = true;
  sent.state = UploadState::Done;
  queue.save(sent);

  writeText(dir / "a.nii.gz", "image");
  writeText(dir / "b.nii.gz", "label v1");
  EXPECT_EQ(queue.enqueue(item("case-1"), dir / "a.nii.gz", dir / "b.nii.gz"),
            EnqueueOutcome::Unchanged);
  EXPECT_EQ(queue.item("case-1")->state, UploadState::Done);

  writeText(dir / "a.nii.gz", "image");
  writeText(dir / "b.nii.gz", "label v2, corrected");
  EXPECT_EQ(queue.enqueue(item("case-1"), dir / "a.nii.gz", dir / "b.nii.gz"),
            EnqueueOutcome::Replaced);
  const UploadItem replaced = *queue.item("case-1");
  EXPECT_EQ(replaced.state, UploadState::Pending);
  EXPECT_TRUE(replaced.image.stored) << "the server holds this image already";
  EXPECT_FALSE(replaced.label.stored);
  std::ifstream in(queue.filePath("case-1", replaced.label.name));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "label v2, corrected");
  EXPECT_EQ(queue.items().size(), 1u);
}

TEST(UploadQueue, PauseIsKeptAndOnlyOneSenderAtATime) {
  test::TempDir dir;
  {
    UploadQueue queue(dir / "q");
    EXPECT_FALSE(queue.paused());
    queue.setPaused(true);
  }
  UploadQueue queue(dir / "q");
  EXPECT_TRUE(queue.paused());
  auto first = queue.tryLockForSending();
  ASSERT_TRUE(first);
  UploadQueue other(dir / "q");
  EXPECT_FALSE(other.tryLockForSending());
  first.reset();
  EXPECT_TRUE(other.tryLockForSending());
}

TEST(UploadQueue, RemoveRetryFailedAndClearDone) {
  test::TempDir dir;
  UploadQueue queue(dir / "q");
  for (const char* id : {"a", "b", "c"}) {
    writeText(dir / "i.nii.gz", id);
    queue.enqueue(item(id), dir / "i.nii.gz", {});
  }
  UploadItem a = *queue.item("a");
  a.state = UploadState::Failed;
  a.attempts = 4;
  queue.save(a);
  UploadItem b = *queue.item("b");
  b.state = UploadState::Done;
  queue.save(b);
  EXPECT_TRUE(queue.remove("c"));
  EXPECT_FALSE(queue.remove("c"));
  EXPECT_EQ(queue.retryFailed(), 1);
  EXPECT_EQ(queue.item("a")->attempts, 0);
  EXPECT_EQ(queue.clearDone(), 1);
  ASSERT_EQ(queue.items().size(), 1u);
  EXPECT_EQ(queue.items()[0].id, "a");
  EXPECT_THROW(queue.save(b), core::Error) << "a removed item cannot come back by a save";
}

TEST(UploadQueue, AFullDiskWhileQueueingLeavesTheQueueAsItWas) {
  test::TempDir dir;
  UploadQueue queue(dir / "q");
  // Noise: it does not compress below the limit set next.
  core::ImageGeometry g;
  g.size = {64, 64, 32};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  std::mt19937 noise(3);
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    voxels->as<std::int16_t>()[i] = static_cast<std::int16_t>(noise() % 30000);
  }
  const auto image = std::make_shared<const core::Volume>(g, voxels, core::VolumeInfo{});
  core::upload::PreparedCase prepared;
  prepared.id = "case-big";
  prepared.source = "big.nii.gz";
  prepared.image = image;
  test::FileSizeLimit full(4096);  // no file grows past 4 KiB: a full disk
  bool threw = false;
  try {
    core::upload::enqueuePrepared(queue, prepared);
  } catch (const core::Error& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find("image.nii.gz"), std::string::npos) << e.what();
  }
  full.lift();
  EXPECT_TRUE(threw);
  EXPECT_TRUE(queue.items().empty());
  EXPECT_TRUE(fs::is_empty(dir / "q" / "incoming")) << "no half-written file stays behind";
  // With room again the same case queues.
  EXPECT_EQ(core::upload::enqueuePrepared(queue, prepared), EnqueueOutcome::Added);
}

TEST(RetryPolicy, FullJitterUnderTheCapAndRetryAfterAsAFloor) {
  std::mt19937_64 rng(7);
  const core::upload::RetryPolicy policy{0.5, 8.0, 60.0};
  double sum = 0;
  for (int n = 0; n < 2000; ++n) {
    const double d = core::upload::retryDelaySeconds(policy, 2, std::nullopt, rng);
    ASSERT_GE(d, 0.0);
    ASSERT_LE(d, 2.0);  // 0.5 * 2^2
    sum += d;
  }
  EXPECT_NEAR(sum / 2000, 1.0, 0.1) << "uniform over [0, 2]";
  for (int n = 0; n < 100; ++n) {
    EXPECT_LE(core::upload::retryDelaySeconds(policy, 30, std::nullopt, rng), 8.0);
    EXPECT_GE(core::upload::retryDelaySeconds(policy, 0, 5.0, rng), 5.0);
    EXPECT_LE(core::upload::retryDelaySeconds(policy, 0, 1e6, rng), 60.0);
  }
}

}  // namespace
}  // namespace delineate
