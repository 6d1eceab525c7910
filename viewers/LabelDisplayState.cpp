#include "viewers/LabelDisplayState.h"

#include <algorithm>
#include <cmath>

namespace delineate::viewers {

namespace {

std::uint8_t alphaOf(double a) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(a, 0.0, 1.0) * 255));
}

}  // namespace

void LabelDisplayState::setLabelMaps(std::vector<MapPtr> maps) {
  maps_ = std::move(maps);
  updateShown();
}

void LabelDisplayState::setProposal(MapPtr proposal) {
  if (proposal == proposal_) {
    return;
  }
  proposal_ = std::move(proposal);
  updateShown();
}

void LabelDisplayState::setComparison(MapPtr overlay, bool hideMaps) {
  if (overlay == comparison_ && hideMaps == hideMaps_) {
    return;
  }
  comparison_ = std::move(overlay);
  hideMaps_ = hideMaps;
  updateShown();
}

void LabelDisplayState::updateShown() {
  shown_.clear();
  if (!mapsHiddenByComparison()) {
    shown_ = maps_;
    if (proposal_) {
      shown_.push_back(proposal_);
    }
  }
  if (comparison_) {
    shown_.push_back(comparison_);
  }
  // Forget per-segment opacities of maps gone (not those hidden under a comparison).
  for (auto it = segmentOpacity_.begin(); it != segmentOpacity_.end();) {
    const core::LabelMap* map = it->first.first;
    const bool kept =
        std::any_of(maps_.begin(), maps_.end(), [&](const MapPtr& m) { return m.get() == map; }) ||
        proposal_.get() == map || comparison_.get() == map;
    it = kept ? std::next(it) : segmentOpacity_.erase(it);
  }
  notify({LabelChange::Maps, nullptr, {}});
}

void LabelDisplayState::voxelsChanged(const core::LabelMap& map, const core::VoxelBox& box) {
  if (!box.empty()) {
    notify({LabelChange::Voxels, &map, box});
  }
}

void LabelDisplayState::segmentsChanged(const core::LabelMap& map) {
  notify({LabelChange::Segments, &map, {}});
}

void LabelDisplayState::setSettings(const LabelDisplaySettings& settings) {
  if (settings == settings_) {
    return;
  }
  settings_ = settings;
  notify({LabelChange::Display, nullptr, {}});
}

void LabelDisplayState::setSegmentOpacity(const core::LabelMap& map, std::uint16_t label,
                                          double opacity) {
  segmentOpacity_[{&map, label}] = std::clamp(opacity, 0.0, 1.0);
  notify({LabelChange::Segments, &map, {}});
}

double LabelDisplayState::segmentOpacity(const core::LabelMap& map, std::uint16_t label) const {
  const auto it = segmentOpacity_.find({&map, label});
  return it == segmentOpacity_.end() ? 1.0 : it->second;
}

std::vector<LabelColor> LabelDisplayState::colorTable(const core::LabelMap& map) const {
  std::uint16_t maxLabel = 0;
  for (const core::Segment& s : map.segments()) {
    maxLabel = std::max(maxLabel, s.label);
  }
  // Values without a segment still show (grey), so that nothing drawn is invisible.
  std::vector<LabelColor> table(std::size_t(maxLabel) + 1);
  const LabelDisplaySettings& d = settings_;
  const double fill = d.showFill ? d.opacity * d.fillOpacity : 0;
  const double outline = d.showOutline ? d.opacity : 0;
  for (std::size_t v = 1; v < table.size(); ++v) {
    table[v].fill = {160, 160, 160, alphaOf(fill)};
    table[v].outline = {160, 160, 160, alphaOf(outline)};
  }
  for (const core::Segment& s : map.segments()) {
    if (s.label == 0) {
      continue;
    }
    LabelColor& c = table[s.label];
    const double factor = s.visible ? segmentOpacity(map, s.label) : 0.0;
    c.fill = {s.color[0], s.color[1], s.color[2], alphaOf(fill * factor)};
    c.outline = {s.color[0], s.color[1], s.color[2], alphaOf(outline * factor)};
  }
  return table;
}

std::vector<std::uint16_t> LabelDisplayState::visibleLabels(const core::LabelMap& map) const {
  std::vector<std::uint16_t> out;
  for (const core::Segment& s : map.segments()) {
    if (s.visible && s.label != 0 && segmentOpacity(map, s.label) > 0) {
      out.push_back(s.label);
    }
  }
  return out;
}

int LabelDisplayState::addObserver(Observer observer) {
  return observers_.add(std::move(observer));
}

void LabelDisplayState::removeObserver(int id) {
  observers_.remove(id);
}

void LabelDisplayState::notify(const LabelChange& change) {
  observers_.notify(change);
}

}  // namespace delineate::viewers
