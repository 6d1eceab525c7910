#pragma once
// Where each label of an AI proposal goes when it is accepted into a label map. By default, one
// structure goes to the active segment, and the labels of a multi-label proposal go to the
// segments of the same names, new segments being added for names the map lacks. A user's rules
// (by the proposal's label name: into a chosen segment, into a new segment, or skip) override
// the default, so that a server's "spleen" can land in the annotator's "Spleen (expert)".
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/LabelMap.h"

namespace delineate::annotation {

struct LabelRule {
  enum class Kind { Default, Segment, NewSegment, Skip };
  Kind kind = Kind::Default;
  std::string segment;  // Kind::Segment: the name of the map's segment to write into
};

// Proposal label name -> rule.
using LabelRules = std::map<std::string, LabelRule>;

struct ProposalLabelPlan {
  std::map<std::uint16_t, std::uint16_t> valueMap;  // proposal value -> map value
  // The map's segment table after the merge when segments are added; nullopt when unchanged.
  std::optional<std::vector<core::Segment>> table;
  std::vector<std::string> skipped;  // proposal labels left out (by rule, or no free value)
};

// `proposal` labels are its segments (or value 1 when it has none); `segments` the target map's
// table; `activeLabel` the active segment. A rule naming a segment the map does not have falls
// back to the default, as does a proposal label without a rule.
ProposalLabelPlan planProposalLabels(const core::LabelMap& proposal,
                                     const std::vector<core::Segment>& segments,
                                     std::uint16_t activeLabel, const LabelRules& rules = {});

}  // namespace delineate::annotation
