#include "annotation/ops/SegmentOperations.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "OpsTestSupport.h"
#include "core/Error.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

// Segment 1: a cube with a one-voxel hole (holding a locked voxel), a spur and a separate speck;
// segment 3 (locked): a slab against the cube's +x face and the voxel in the hole; segment 2: a
// slab against the cube's -x face.
void drawScene(OpsFixture& f) {
  f.paint(1, [](long i, long j, long k) {
    return inCube(i, j, k, 8, 16) || (j == 12 && k == 12 && i >= 4 && i < 8) ||
           (i == 26 && j == 26 && k == 26);
  });
  f.paint(3, [](long i, long j, long k) {
    return (i >= 16 && i < 18 && j >= 8 && j < 16 && k >= 8 && k < 16) ||
           (i == 11 && j == 11 && k == 11);
  });
  f.paint(2, [](long i, long j, long k) {
    return i >= 5 && i < 7 && j >= 8 && j < 11 && k >= 8 && k < 16;
  });
}

struct Operation {
  const char* name;
  bool changes;  // whether it changes the scene (the two aimed at the locked segment do not)
  std::function<std::size_t(EditContext&, core::ProgressSink&)> run;
};

std::vector<Operation> operations() {
  return {
      {"keep largest island", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runIslands(c, 1, IslandMode::KeepLargest, 0, p);
       }},
      {"remove small islands", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runIslands(c, 1, IslandMode::RemoveSmall, 2, p);
       }},
      {"median", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runSmoothing(c, 1, SmoothingKind::Median, 1, p);
       }},
      {"opening", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runSmoothing(c, 1, SmoothingKind::Opening, 1, p);
       }},
      {"closing", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runSmoothing(c, 1, SmoothingKind::Closing, 2, p);
       }},
      {"grow", true, [](EditContext& c, core::ProgressSink& p) { return runMargin(c, 1, 3, p); }},
      {"shrink", true,
       [](EditContext& c, core::ProgressSink& p) { return runMargin(c, 1, -1, p); }},
      {"union with locked", false,
       [](EditContext& c, core::ProgressSink& p) {
         return runLogical(c, 1, 3, LogicalOp::Union, p);
       }},
      {"union with B", true,
       [](EditContext& c, core::ProgressSink& p) {
         return runLogical(c, 1, 2, LogicalOp::Union, p);
       }},
      {"locked minus A", false,
       [](EditContext& c, core::ProgressSink& p) {
         return runLogical(c, 3, 1, LogicalOp::Subtract, p);
       }},
      {"fill between slices", true,
       [](EditContext& c, core::ProgressSink& p) { return runFillBetweenSlices(c, 1, 2, p); }},
  };
}

}  // namespace

TEST(SegmentOperations, LockedSegmentsSurviveEveryOperation) {
  for (const Operation& op : operations()) {
    OpsFixture f;
    drawScene(f);
    const auto before = f.snapshot();
    core::NullProgress progress;
    op.run(f.ctx, progress);
    const auto after = f.snapshot();
    for (std::size_t v = 0; v < before.size(); ++v) {
      ASSERT_EQ(before[v] == 3, after[v] == 3) << op.name << " changed locked voxel " << v;
    }
  }
}

TEST(SegmentOperations, EachIsOneUndoEntryAndUndoRestoresExactly) {
  for (const Operation& op : operations()) {
    OpsFixture f;
    drawScene(f);
    const auto before = f.snapshot();
    core::NullProgress progress;
    const std::size_t changed = op.run(f.ctx, progress);
    const auto after = f.snapshot();
    std::size_t differ = 0;
    for (std::size_t v = 0; v < before.size(); ++v) {
      differ += before[v] != after[v];
    }
    EXPECT_EQ(changed, differ) << op.name;
    EXPECT_EQ(changed > 0, op.changes) << op.name;
    if (changed == 0) {
      EXPECT_EQ(f.undo.count(), 0u) << op.name;
      EXPECT_TRUE(f.notified.empty()) << op.name;
      continue;
    }
    EXPECT_EQ(f.undo.count(), 1u) << op.name;
    ASSERT_EQ(f.notified.size(), 1u) << op.name;
    f.undo.undo();
    EXPECT_EQ(f.snapshot(), before) << op.name;
    f.undo.redo();
    EXPECT_EQ(f.snapshot(), after) << op.name;
  }
}

TEST(SegmentOperations, OperationsDoWhatTheySayOnTheLabelMap) {
  core::NullProgress progress;
  {
    OpsFixture f;
    drawScene(f);
    runIslands(f.ctx, 1, IslandMode::KeepLargest, 0, progress);
    EXPECT_EQ(f.map().at(26, 26, 26), 0);  // the speck went
    EXPECT_EQ(f.map().at(5, 12, 12), 1);   // the spur is part of the cube's island
  }
  {
    OpsFixture f;
    drawScene(f);
    runSmoothing(f.ctx, 1, SmoothingKind::Opening, 1, progress);
    EXPECT_EQ(f.map().at(5, 12, 12), 0);  // the spur went
    EXPECT_EQ(f.map().at(12, 12, 12), 1);
    EXPECT_EQ(f.map().at(26, 26, 26), 0);
  }
  {
    OpsFixture f;
    drawScene(f);
    runLogical(f.ctx, 1, 2, LogicalOp::Union, progress);
    EXPECT_EQ(f.count(2), 0u);  // all of B's voxels joined A
    runLogical(f.ctx, 1, 3, LogicalOp::Intersect, progress);
    EXPECT_EQ(f.count(1), 0u);  // no overlap in one label map: A becomes empty
    EXPECT_EQ(f.count(3), 2u * 8 * 8 + 1);
  }
  {
    OpsFixture f;
    drawScene(f);
    runMargin(f.ctx, 1, 1, progress);
    EXPECT_EQ(f.map().at(18, 12, 12), 0);  // beyond the locked slab: not reached
    EXPECT_EQ(f.map().at(12, 12, 16), 1);
    EXPECT_EQ(f.map().at(7, 9, 9), 1);  // took B's voxel under the All policy
  }
}

TEST(SegmentOperations, GainsObeyThePolicyButOwnVoxelsCanAlwaysGo) {
  core::NullProgress progress;
  OpsFixture f;
  drawScene(f);
  f.ctx.policy = {core::OverwriteMode::EmptyOnly};
  const std::size_t b = f.count(2);
  runMargin(f.ctx, 1, 1, progress);
  EXPECT_EQ(f.count(2), b);  // B kept its voxels
  EXPECT_EQ(f.map().at(12, 12, 16), 1);
  const std::size_t grown = f.count(1);
  runMargin(f.ctx, 1, -1, progress);  // removing own voxels is not refused by EmptyOnly
  EXPECT_LT(f.count(1), grown);
  EXPECT_EQ(f.map().at(12, 12, 16), 0);

  f.ctx.policy = {core::OverwriteMode::InsideSegment, 2};
  runMargin(f.ctx, 1, 2, progress);
  EXPECT_EQ(f.map().at(12, 12, 17), 0);  // empty voxels are not inside segment 2
  EXPECT_EQ(f.map().at(6, 9, 9), 1);     // B's are
}

TEST(SegmentOperations, ComputeOnAWorkerThenApplyOnTheCaller) {
  OpsFixture f, twin;
  drawScene(f);
  drawScene(twin);
  BoxMask result;
  std::thread worker([&] {
    core::NullProgress progress;
    const core::LabelMap& snapshot = *f.ctx.labels;
    result = computeSmoothing(snapshot, 1, SmoothingKind::Closing, 2, progress);
  });
  worker.join();
  EXPECT_EQ(f.undo.count(), 0u);
  applySegmentResult(f.ctx, 1, result, "Closing");
  core::NullProgress progress;
  runSmoothing(twin.ctx, 1, SmoothingKind::Closing, 2, progress);
  EXPECT_EQ(f.snapshot(), twin.snapshot());
  EXPECT_EQ(f.undo.undoText(), "Closing");
}

TEST(SegmentOperations, APlanWorkedOutOnAWorkerLandsAsTheSameEditUnderThePolicy) {
  // The app works out the whole edit on the worker (the map untouched) and only writes it on
  // the GUI thread: the result must be what applying on the GUI thread gave, policy included.
  for (const core::PaintPolicy policy :
       {core::PaintPolicy{}, core::PaintPolicy{core::OverwriteMode::EmptyOnly}}) {
    OpsFixture f, twin;
    drawScene(f);
    drawScene(twin);
    f.ctx.policy = twin.ctx.policy = policy;
    const auto before = f.snapshot();
    core::VoxelDelta plan;
    std::thread worker([&] {
      core::NullProgress progress;
      const core::LabelMap& map = *f.ctx.labels;
      plan = planSegmentResult(map, 1, computeMargin(map, 1, 2, progress), policy);
    });
    worker.join();
    EXPECT_EQ(f.snapshot(), before) << "the plan writes nothing";
    const std::size_t changed = landSegmentResult(f.ctx, std::move(plan), "Margin");
    core::NullProgress progress;
    EXPECT_EQ(runMargin(twin.ctx, 1, 2, progress), changed);
    EXPECT_GT(changed, 0u);
    EXPECT_EQ(f.snapshot(), twin.snapshot());
    EXPECT_EQ(f.undo.undoText(), "Margin");
    f.undo.undo();
    EXPECT_EQ(f.snapshot(), before);
  }
}

TEST(SegmentOperations, CancelLeavesEverythingAsItWas) {
  class Cancelled : public core::ProgressSink {
   public:
    void report(double, std::string_view) override {}
    bool cancelled() const override { return true; }
  } cancelled;
  OpsFixture f;
  drawScene(f);
  const auto before = f.snapshot();
  for (const Operation& op : operations()) {
    EXPECT_THROW(op.run(f.ctx, cancelled), core::CancelledError) << op.name;
  }
  EXPECT_EQ(f.snapshot(), before);
  EXPECT_EQ(f.undo.count(), 0u);
}
