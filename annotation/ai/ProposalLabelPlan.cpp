#include "annotation/ai/ProposalLabelPlan.h"

#include <algorithm>

namespace delineate::annotation {

namespace {

const core::Segment* named(const std::vector<core::Segment>& segments, const std::string& name) {
  const auto it = std::find_if(segments.begin(), segments.end(),
                               [&](const core::Segment& s) { return s.name == name; });
  return it == segments.end() ? nullptr : &*it;
}

std::optional<std::uint16_t> freeValue(const std::vector<core::Segment>& segments) {
  for (std::uint32_t v = 1; v <= 65535; ++v) {
    if (std::none_of(segments.begin(), segments.end(),
                     [v](const core::Segment& s) { return s.label == v; })) {
      return static_cast<std::uint16_t>(v);
    }
  }
  return std::nullopt;
}

}  // namespace

ProposalLabelPlan planProposalLabels(const core::LabelMap& proposal,
                                     const std::vector<core::Segment>& segments,
                                     std::uint16_t activeLabel, const LabelRules& rules) {
  std::vector<core::Segment> labels = proposal.segments();
  if (labels.empty()) {
    labels.push_back(core::defaultSegment(1));
  }
  const bool single = labels.size() == 1;
  ProposalLabelPlan plan;
  std::vector<core::Segment> after = segments;
  bool added = false;
  for (const core::Segment& s : labels) {
    const auto rule = rules.find(s.name);
    LabelRule r = rule == rules.end() ? LabelRule{} : rule->second;
    if (r.kind == LabelRule::Kind::Segment && named(after, r.segment) == nullptr) {
      r.kind = LabelRule::Kind::Default;  // the chosen segment is gone: do what we would anyway
    }
    if (r.kind == LabelRule::Kind::Skip) {
      plan.skipped.push_back(s.name);
      continue;
    }
    if (r.kind == LabelRule::Kind::Segment) {
      plan.valueMap[s.label] = named(after, r.segment)->label;
      continue;
    }
    if (r.kind == LabelRule::Kind::Default) {
      if (single && activeLabel != 0) {
        plan.valueMap[s.label] = activeLabel;
        continue;
      }
      if (const core::Segment* same = named(after, s.name)) {
        plan.valueMap[s.label] = same->label;
        continue;
      }
    }
    const auto value = freeValue(after);
    if (!value) {
      plan.skipped.push_back(s.name);
      continue;
    }
    core::Segment fresh = s;
    fresh.label = *value;
    after.push_back(fresh);
    plan.valueMap[s.label] = *value;
    added = true;
  }
  if (added) {
    plan.table = std::move(after);
  }
  return plan;
}

}  // namespace delineate::annotation
