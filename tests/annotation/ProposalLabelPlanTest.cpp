// Where the labels of an AI proposal go on Accept: the active segment for one structure, the
// segments of the same names for several (new ones added), and the user's rules over both.
#include <gtest/gtest.h>

#include "annotation/ai/ProposalLabelPlan.h"

using namespace delineate;
using annotation::LabelRule;
using annotation::planProposalLabels;

namespace {

core::Segment seg(std::uint16_t label, const std::string& name) {
  core::Segment s = core::defaultSegment(label);
  s.name = name;
  return s;
}

core::LabelMap proposalWith(std::vector<core::Segment> segments) {
  core::ImageGeometry g;
  g.size = {4, 4, 4};
  return core::LabelMap("proposal", g, std::move(segments));
}

}  // namespace

TEST(ProposalLabelPlan, OneStructureGoesToTheActiveSegment) {
  const auto plan = planProposalLabels(proposalWith({seg(1, "spleen")}),
                                       {seg(1, "Liver"), seg(4, "Spleen (expert)")}, 4);
  EXPECT_EQ(plan.valueMap, (std::map<std::uint16_t, std::uint16_t>{{1, 4}}));
  EXPECT_FALSE(plan.table.has_value());
  // Without segments the proposal's value 1 is the structure.
  EXPECT_EQ(planProposalLabels(proposalWith({}), {seg(2, "A")}, 2).valueMap.at(1), 2);
}

TEST(ProposalLabelPlan, SeveralGoBySegmentNameAndNewNamesBecomeNewSegments) {
  const auto plan = planProposalLabels(proposalWith({seg(1, "liver"), seg(2, "spleen")}),
                                       {seg(1, "spleen"), seg(3, "kidney")}, 3);
  EXPECT_EQ(plan.valueMap.at(2), 1) << "spleen to the map's spleen";
  EXPECT_EQ(plan.valueMap.at(1), 2) << "liver to a new segment, the first free value";
  ASSERT_TRUE(plan.table.has_value());
  ASSERT_EQ(plan.table->size(), 3u);
  EXPECT_EQ(plan.table->back().name, "liver");
  EXPECT_EQ(plan.table->back().label, 2);
}

TEST(ProposalLabelPlan, RulesChooseTheSegmentANewOneOrSkip) {
  annotation::LabelRules rules;
  rules["spleen"] = {LabelRule::Kind::Segment, "Spleen (expert)"};
  rules["liver"] = {LabelRule::Kind::Skip, {}};
  rules["kidney"] = {LabelRule::Kind::NewSegment, {}};
  rules["tumour"] = {LabelRule::Kind::Segment, "No such segment"};
  const auto plan = planProposalLabels(
      proposalWith({seg(1, "liver"), seg(2, "spleen"), seg(3, "kidney"), seg(4, "tumour")}),
      {seg(1, "kidney"), seg(5, "Spleen (expert)"), seg(6, "tumour")}, 1, rules);
  EXPECT_EQ(plan.valueMap.at(2), 5);
  EXPECT_EQ(plan.valueMap.count(1), 0u);
  EXPECT_EQ(plan.skipped, (std::vector<std::string>{"liver"}));
  EXPECT_EQ(plan.valueMap.at(3), 2) << "a new kidney although the map has one";
  EXPECT_EQ(plan.valueMap.at(4), 6) << "a rule naming a missing segment falls back to the name";
  ASSERT_TRUE(plan.table.has_value());
  EXPECT_EQ(plan.table->size(), 4u);
  // A single structure follows its rule too, not the active segment.
  const auto one = planProposalLabels(proposalWith({seg(1, "spleen")}),
                                      {seg(1, "Liver"), seg(5, "Spleen (expert)")}, 1, rules);
  EXPECT_EQ(one.valueMap.at(1), 5);
}
