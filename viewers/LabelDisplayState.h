#pragma once
// Qt- and VTK-free state the views share about segmentations: which label maps are shown, how
// (global opacity, fill and outline, per-segment opacity) and what changed. The app feeds it from
// the Document's coalesced change notifications; every SliceView (label overlay) and the
// VolumeView (surfaces) observe it. Segment colour, name and visibility come from the label
// map's own segment table.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"
#include "viewers/ObserverList.h"

namespace delineate::viewers {

struct LabelDisplaySettings {
  double opacity = 1.0;      // global: scales fill and outline
  double fillOpacity = 0.5;  // fill alpha before the global and per-segment factors
  bool showFill = true;
  bool showOutline = true;
  bool operator==(const LabelDisplaySettings&) const = default;
};

// RGBA (0..255) of the fill and the outline of one label value.
struct LabelColor {
  std::array<std::uint8_t, 4> fill{0, 0, 0, 0};
  std::array<std::uint8_t, 4> outline{0, 0, 0, 0};
};

struct LabelChange {
  enum Kind { Maps, Voxels, Segments, Display };
  Kind kind = Maps;
  const core::LabelMap* map = nullptr;  // Voxels / Segments: the map concerned
  core::VoxelBox box;                   // Voxels: what changed
};

class LabelDisplayState {
 public:
  using Observer = std::function<void(const LabelChange&)>;
  using MapPtr = std::shared_ptr<const core::LabelMap>;

  // The label maps shown, bottom to top (the active one is drawn last).
  void setLabelMaps(std::vector<MapPtr> maps);
  // What is drawn: the label maps, then the AI proposal (if any), then the comparison overlay.
  const std::vector<MapPtr>& labelMaps() const { return shown_; }
  // An AI proposal drawn over the label maps (null: none). Its segments' opacity is set with
  // setSegmentOpacity like any map's.
  void setProposal(MapPtr proposal);
  const MapPtr& proposal() const { return proposal_; }
  // A comparison overlay (the agreement of two maps, see core/metrics/AgreementMap.h) drawn on
  // top of everything; with `hideMaps` the label maps and the proposal are not drawn while it is
  // shown. Null: none.
  void setComparison(MapPtr overlay, bool hideMaps);
  const MapPtr& comparison() const { return comparison_; }
  bool mapsHiddenByComparison() const { return comparison_ && hideMaps_; }

  // Voxels of `map` changed inside `box` (a stroke in progress, an undo...).
  void voxelsChanged(const core::LabelMap& map, const core::VoxelBox& box);
  // Names, colours, visibility or order of `map`'s segments changed.
  void segmentsChanged(const core::LabelMap& map);

  void setSettings(const LabelDisplaySettings& settings);
  const LabelDisplaySettings& settings() const { return settings_; }
  // Per-segment opacity factor (0..1, default 1), kept per label map.
  void setSegmentOpacity(const core::LabelMap& map, std::uint16_t label, double opacity);
  double segmentOpacity(const core::LabelMap& map, std::uint16_t label) const;

  // Colour table of `map`: entry v is label value v (hidden segments and 0 are transparent;
  // values without a segment get a grey).
  std::vector<LabelColor> colorTable(const core::LabelMap& map) const;
  // Visible segment labels of `map` (for the 3D surfaces).
  std::vector<std::uint16_t> visibleLabels(const core::LabelMap& map) const;

  int addObserver(Observer observer);
  void removeObserver(int id);

 private:
  void notify(const LabelChange& change);

  void updateShown();

  std::vector<MapPtr> maps_;
  MapPtr proposal_;
  MapPtr comparison_;
  bool hideMaps_ = false;
  std::vector<MapPtr> shown_;
  LabelDisplaySettings settings_;
  std::map<std::pair<const core::LabelMap*, std::uint16_t>, double> segmentOpacity_;
  ObserverList<const LabelChange&> observers_;
};

}  // namespace delineate::viewers
