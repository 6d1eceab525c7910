// Refining a segment with the AI (annotation/ai/SegmentMaskCache, ProposalMerge's `refined`):
// the segment's mask is made once while nothing changes, so a server that has it is not sent
// it again; an edit makes a new one; accepting a refinement clears what the proposal left out.
#include "annotation/ai/SegmentMaskCache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <thread>

#include "annotation/ai/ProposalMerge.h"
#include "core/edit/LabelMapEdit.h"

using namespace delineate;

namespace {

core::ImageGeometry smallGrid() {
  core::ImageGeometry g;
  g.size = {8, 6, 4};
  return g;
}

// Segment 1 at (1, 1, 1) and (2, 1, 1); segment 2 at (6, 4, 2).
std::unique_ptr<core::LabelMap> twoSegments() {
  auto map = std::make_unique<core::LabelMap>(
      "t", smallGrid(),
      std::vector<core::Segment>{core::defaultSegment(1), core::defaultSegment(2)});
  core::LabelMapEdit edit(*map);
  edit.write(1, 1, 1, 1);
  edit.write(2, 1, 1, 1);
  edit.write(6, 4, 2, 2);
  edit.commit();
  return map;
}

}  // namespace

TEST(SegmentMaskCache, TheSameMaskUntilTheMapChanges) {
  core::LabelMap map("m", smallGrid(), {core::defaultSegment(1), core::defaultSegment(2)});
  annotation::SegmentMaskCache cache;
  EXPECT_EQ(cache.maskOf(map, 1), nullptr) << "an empty segment has nothing to refine";
  {
    core::LabelMapEdit edit(map);
    edit.write(1, 1, 1, 1);
    edit.write(2, 1, 1, 1);
    edit.write(5, 5, 3, 2);
    edit.commit();
  }
  const auto first = cache.maskOf(map, 1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(std::count(first->begin(), first->end(), 1), 2);
  EXPECT_EQ((*first)[1 + 8 * (1 + 6 * 1)], 1);
  EXPECT_EQ(cache.maskOf(map, 1), first) << "unchanged: the same object";
  const auto other = cache.maskOf(map, 2);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(std::count(other->begin(), other->end(), 1), 1);
  {
    core::LabelMapEdit edit(map);
    edit.write(3, 1, 1, 1);
    edit.commit();
  }
  const auto edited = cache.maskOf(map, 1);
  ASSERT_NE(edited, nullptr);
  EXPECT_NE(edited, first);
  EXPECT_EQ(std::count(edited->begin(), edited->end(), 1), 3);
}

// The app builds the mask in its AI job from a worker copy of the map: the voxels come from the
// copy, the identity from the map the user edits, so a copy taken anew for an unchanged map still
// gives the same mask object (the server is not sent it again).
TEST(SegmentMaskCache, AWorkerCopyGivesTheSourcesMaskFromJobs) {
  const auto source = twoSegments();
  const auto copyA = twoSegments();
  const auto copyB = twoSegments();
  annotation::SegmentMaskCache cache;
  std::shared_ptr<const std::vector<std::uint8_t>> fromA, fromB;
  std::thread a([&] { fromA = cache.maskOf(*copyA, source.get(), source->version(), 1); });
  a.join();
  std::thread b([&] { fromB = cache.maskOf(*copyB, source.get(), source->version(), 1); });
  b.join();
  ASSERT_NE(fromA, nullptr);
  EXPECT_EQ(fromB, fromA) << "the same source at the same version";
  EXPECT_EQ(std::count(fromA->begin(), fromA->end(), 1), 2);
  EXPECT_NE(cache.maskOf(*copyB, source.get(), source->version() + 1, 1), fromA)
      << "the source changed: a new mask";
  EXPECT_EQ(cache.maskOf(*copyB, source.get(), source->version(), 2)->at(6 + 8 * (4 + 6 * 2)), 1);
}

TEST(ProposalMerge, ARefinementClearsWhatTheProposalLeftOutAndNothingElse) {
  const auto target = twoSegments();
  core::LabelMap proposal("p", smallGrid(), {core::defaultSegment(1)});
  {
    core::LabelMapEdit edit(proposal);
    edit.write(1, 1, 1, 1);
    edit.write(1, 2, 1, 1);
    edit.commit();
  }
  const core::VoxelBox all = core::VoxelBox::whole(smallGrid().size);
  const auto plain = twoSegments();
  annotation::mergeProposal(proposal, *plain, {{1, 1}}, all, {});
  EXPECT_EQ(plain->at(2, 1, 1), 1) << "a proposal made afresh only adds";
  annotation::mergeProposal(proposal, *target, {{1, 1}}, all, {}, std::uint16_t(1));
  EXPECT_EQ(target->at(1, 1, 1), 1);
  EXPECT_EQ(target->at(1, 2, 1), 1);
  EXPECT_EQ(target->at(2, 1, 1), 0) << "left out of the refined proposal: cleared";
  EXPECT_EQ(target->at(6, 4, 2), 2) << "another segment is not touched";
}
