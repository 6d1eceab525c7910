// The annotator's AI workflow without widgets: clicks per segment, the request they make,
// Freeze, and Accept under the paint-over policy and the locks.
#include <gtest/gtest.h>

#include "annotation/ai/AiInteraction.h"
#include "annotation/ai/ProposalMerge.h"
#include "core/Error.h"
#include "core/edit/LabelMapEdit.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate;
using namespace delineate::annotation;

namespace {

core::ImageGeometry grid() {
  core::ImageGeometry g;
  g.size = {20, 16, 10};
  g.spacing = {0.5, 0.5, 2.0};
  g.origin = {10, -4, 0};
  return g;
}

std::shared_ptr<core::LabelMap> blockProposal(std::size_t i0, std::size_t i1, std::size_t k0,
                                              std::size_t k1) {
  auto p = std::make_shared<core::LabelMap>("proposal", grid(),
                                            std::vector<core::Segment>{{.label = 1}});
  for (std::size_t k = k0; k < k1; ++k) {
    for (std::size_t j = 4; j < 8; ++j) {
      for (std::size_t i = i0; i < i1; ++i) {
        p->mutableData()[p->index(i, j, k)] = 1;
      }
    }
  }
  return p;
}

}  // namespace

TEST(AiInteraction, EachSegmentKeepsItsOwnClicksAsRoundedVoxels) {
  AiInteraction ai;
  core::LabelMap map("m", grid());
  ai.setTarget({&map, 1});
  // Voxel (4, 2, 3) sits at (12, -3, 6); 0.2 mm off still rounds to it.
  EXPECT_TRUE(ai.addClick(grid(), {12.2, -3.2, 6.4}, ClickKind::Positive));
  EXPECT_TRUE(ai.addClick(grid(), {14.0, -3.0, 2.0}, ClickKind::Negative));
  EXPECT_FALSE(ai.addClick(grid(), {500, 0, 0}, ClickKind::Positive)) << "outside the image";
  ai.setTarget({&map, 2});
  EXPECT_TRUE(ai.clicks().empty());
  EXPECT_TRUE(ai.addClick(grid(), {10, -4, 0}, ClickKind::Positive));
  ai.setTarget({&map, 1});
  const auto r = ai.request("deepgrow", nullptr, "Liver");
  ASSERT_EQ(r.foreground.size(), 1u);
  EXPECT_EQ(r.foreground[0], (core::ai::VoxelIndex{4, 2, 3}));
  ASSERT_EQ(r.background.size(), 1u);
  EXPECT_EQ(r.background[0], (core::ai::VoxelIndex{8, 2, 1}));
  EXPECT_EQ(r.label, "Liver");
  ai.removeLastClick();
  EXPECT_EQ(ai.clicks().size(), 1u);
  EXPECT_EQ(ai.clicksOf({&map, 2}).size(), 1u);
}

TEST(AiInteraction, AtMostSixExtremePoints) {
  AiInteraction ai;
  for (int n = 0; n < 6; ++n) {
    EXPECT_TRUE(ai.addClick(grid(), {10.0 + n, -4, 0}, ClickKind::Extreme));
  }
  EXPECT_FALSE(ai.addClick(grid(), {10, -4, 2}, ClickKind::Extreme));
  EXPECT_EQ(ai.request("dextr", nullptr, "").extremePoints.size(), 6u);
}

TEST(AiInteraction, FrozenRegionOnlyGainsVoxels) {
  AiInteraction ai;
  ai.setProposal(blockProposal(2, 10, 2, 8), core::VoxelBox{{2, 4, 2}, {10, 8, 8}});
  ai.setFrozen(sliceRegion(grid(), {0, 0, 5}, 2));
  // The new result is elsewhere and larger: outside slice 5 nothing changes; in it only adds.
  const core::VoxelBox changed =
      ai.setProposal(blockProposal(6, 16, 0, 10), core::VoxelBox{{6, 4, 0}, {16, 8, 10}});
  const auto& p = *ai.proposal();
  EXPECT_EQ(p.at(3, 5, 5), 1) << "kept: the new result does not remove";
  EXPECT_EQ(p.at(14, 5, 5), 1) << "added inside the frozen slice";
  EXPECT_EQ(p.at(14, 5, 4), 0) << "not added outside it";
  EXPECT_EQ(p.at(3, 5, 4), 1) << "kept outside it";
  EXPECT_EQ(changed.lo[2], 5u);
  EXPECT_EQ(changed.hi[2], 6u);
}

namespace {

// A target map holding the user's work: a locked voxel of "Manual" at (3, 5, 3) and one voxel of
// "Tumour" at (4, 5, 3).
core::LabelMap mapWithLockedWork() {
  core::LabelMap target("t", grid(),
                        {{.label = 1, .name = "Tumour"}, {.label = 2, .name = "Manual"}});
  {
    core::LabelMapEdit edit(target);
    edit.write(3, 5, 3, 2);
    edit.write(4, 5, 3, 1);
    edit.commit();
  }
  target.segment(2)->locked = true;
  return target;
}

}  // namespace

TEST(ProposalMerge, AcceptRespectsThePolicyAndTheLocks) {
  core::LabelMap target = mapWithLockedWork();
  const auto proposal = blockProposal(2, 6, 2, 4);
  core::PaintPolicy onlyEmpty;
  onlyEmpty.mode = core::OverwriteMode::EmptyOnly;
  const core::VoxelDelta delta =
      mergeProposal(*proposal, target, {{1, 1}}, core::VoxelBox{{2, 4, 2}, {6, 8, 4}}, onlyEmpty);
  EXPECT_EQ(target.at(3, 5, 3), 2) << "locked segment untouched";
  EXPECT_EQ(target.at(2, 4, 2), 1);
  EXPECT_EQ(delta.changedVoxels(), 4u * 4u * 2u - 2u);
  delta.apply(target, false);
  EXPECT_EQ(target.at(2, 4, 2), 0) << "one delta undoes the whole accept";
  EXPECT_EQ(target.at(4, 5, 3), 1);
}

TEST(ProposalMerge, APlannedMergeLeavesTheMapUntilAppliedAndThenMatchesTheDirectOne) {
  core::LabelMap target = mapWithLockedWork();
  const auto proposal = blockProposal(2, 6, 2, 4);
  core::PaintPolicy onlyEmpty;
  onlyEmpty.mode = core::OverwriteMode::EmptyOnly;
  const core::VoxelBox box{{2, 4, 2}, {6, 8, 4}};
  const std::vector<std::uint16_t> before(target.data(), target.data() + target.voxelCount());
  core::NullProgress progress;
  const core::VoxelDelta plan =
      planProposalMerge(*proposal, target, {{1, 1}}, box, onlyEmpty, progress);
  EXPECT_EQ(std::vector<std::uint16_t>(target.data(), target.data() + target.voxelCount()), before)
      << "worked out without writing";
  EXPECT_EQ(plan.changedVoxels(), 4u * 4u * 2u - 2u);
  plan.apply(target, true);
  EXPECT_EQ(target.at(3, 5, 3), 2) << "locked segment untouched";
  EXPECT_EQ(target.at(2, 4, 2), 1);

  core::CancelToken token;
  token.cancel();
  core::NullProgress cancelled(token);
  EXPECT_THROW(planProposalMerge(*proposal, target, {{1, 1}}, box, onlyEmpty, cancelled),
               core::CancelledError);
}
