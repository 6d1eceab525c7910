#include "app/gui/editing/EditSession.h"

#include <algorithm>

#include "app/gui/editing/SegmentTableCommand.h"
#include "core/edit/LabelMapEdit.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::app {

namespace {

core::Segment defaultSegment(std::uint16_t label, const QString& name) {
  core::Segment s = core::defaultSegment(label);
  if (!name.isEmpty()) {
    s.name = name.toStdString();
  }
  return s;
}

}  // namespace

EditSession::EditSession(std::shared_ptr<viewers::LabelDisplayState> display, QObject* parent)
    : QObject(parent), display_(std::move(display)) {
  context_.undo = &document_.undoStack();
  context_.changed = [this](const core::VoxelBox& box) {
    if (context_.labels) {
      document_.voxelsChanged(*context_.labels, box);
    }
  };
  observerId_ = document_.addObserver([this](const core::DocumentChange& c) { onChange(c); });
}

EditSession::~EditSession() {
  document_.removeObserver(observerId_);
}

void EditSession::enableRecovery(const std::filesystem::path& root) {
  document_.enableRecovery(root);
}

void EditSession::setImage(core::VolumePtr image) {
  if (cancelBusy_) {
    cancelBusy_();
  }
  clearBusy();
  document_.setImage(image);
  context_.image = std::move(image);
  context_.labels = nullptr;
  context_.activeLabel = 1;
  context_.policy = {};
  mirrors_.clear();
  flush();
}

void EditSession::setImageFrame(core::VolumePtr frame) {
  document_.setImageFrame(frame);
  context_.image = std::move(frame);
  flush();
}

int EditSession::activeMapIndex() const {
  const auto& maps = document_.labelMaps();
  const auto it = std::find(maps.begin(), maps.end(), document_.activeLabelMap());
  return it == maps.end() ? -1 : static_cast<int>(it - maps.begin());
}

std::shared_ptr<core::LabelMap> EditSession::ensureLabelMap() {
  if (auto map = activeMap()) {
    return map;
  }
  return document_.image() ? newLabelMap() : nullptr;
}

std::shared_ptr<core::LabelMap> EditSession::newLabelMap() {
  const std::size_t n = document_.labelMaps().size();
  const std::string name = n == 0 ? "Segmentation" : "Segmentation " + std::to_string(n + 1);
  auto map = document_.addLabelMap(name, {defaultSegment(1, {})});
  mirrors_[map.get()] = std::make_unique<core::LabelMirror>(map, true);
  context_.labels = map;
  context_.activeLabel = 1;
  flush();
  return map;
}

void EditSession::addLabelMap(std::shared_ptr<core::LabelMap> map) {
  document_.addLabelMap(map);
  mirrors_[map.get()] = std::make_unique<core::LabelMirror>(map, false);
  context_.labels = std::move(map);
  fixActiveLabel();
  flush();
}

void EditSession::setActiveLabelMap(int index) {
  if (index < 0 || index >= static_cast<int>(document_.labelMaps().size())) {
    return;
  }
  document_.setActiveLabelMap(static_cast<std::size_t>(index));
  context_.labels = document_.activeLabelMap();
  fixActiveLabel();
  flush();
}

void EditSession::renameLabelMap(const core::LabelMap& map, const QString& name) {
  for (const auto& m : document_.labelMaps()) {
    if (m.get() == &map) {
      m->setName(name.toStdString());
      Q_EMIT labelMapsChanged();
      return;
    }
  }
}

void EditSession::installRecovered(RecoveredMap recovered) {
  auto map = recovered.map;
  document_.addRecoveredLabelMap(map,
                                 std::make_unique<core::VoxelEditCommand>(
                                     map, std::move(recovered.restore), "Recovered edits"),
                                 std::move(recovered.journal));
  mirrors_[map.get()] = std::make_unique<core::LabelMirror>(map, false);
  document_.markModified(*map);  // even when the restore entry is empty (a renamed segment)
  context_.labels = map;
  fixActiveLabel();
  flush();
}

std::shared_ptr<const core::LabelMap> EditSession::readCopy(const core::LabelMap& map) {
  const auto it = mirrors_.find(&map);
  if (it == mirrors_.end()) {
    return nullptr;
  }
  if (document_.hasPendingChanges()) {
    flush();  // the mirror must know every box edited so far
  }
  return it->second->read();
}

void EditSession::setActiveLabel(std::uint16_t label) {
  auto map = activeMap();
  if (!map || map->segment(label) == nullptr || context_.activeLabel == label) {
    return;
  }
  context_.activeLabel = label;
  Q_EMIT activeSegmentChanged(label);
}

void EditSession::fixActiveLabel() {
  auto map = activeMap();
  if (!map || map->segments().empty()) {
    return;
  }
  if (map->segment(context_.activeLabel) == nullptr) {
    context_.activeLabel = map->segments().front().label;
    Q_EMIT activeSegmentChanged(context_.activeLabel);
  }
}

bool EditSession::pushTableEdit(const std::string& text, std::vector<core::Segment> after,
                                core::VoxelDelta delta) {
  auto map = activeMap();
  if (!map) {
    return false;
  }
  std::vector<core::Segment> before = map->segments();
  map->segments() = after;
  core::LabelMap* raw = map.get();
  document_.undoStack().push(std::make_unique<SegmentTableCommand>(
      map, std::move(delta), text, std::move(before), std::move(after), [this, raw] {
        document_.segmentsChanged(*raw);
        fixActiveLabel();
      }));
  document_.segmentsChanged(*map);
  flush();
  return true;
}

bool EditSession::commitEdit(const std::string& text, core::VoxelDelta delta,
                             std::optional<std::vector<core::Segment>> table) {
  auto map = activeMap();
  if (!map) {
    return false;
  }
  if (table) {
    return pushTableEdit(text, std::move(*table), std::move(delta));
  }
  if (!delta.empty()) {
    document_.undoStack().push(
        std::make_unique<core::VoxelEditCommand>(map, std::move(delta), text));
  }
  flush();
  return true;
}

std::uint16_t EditSession::addSegment(const QString& name) {
  auto map = ensureLabelMap();
  if (!map) {
    return 0;
  }
  const auto label = map->freeLabel();
  if (!label) {
    Q_EMIT statusMessage(tr("No free label value left in %1").arg(map->name().c_str()));
    return 0;
  }
  auto after = map->segments();
  after.push_back(defaultSegment(*label, name));
  pushTableEdit("Add segment", std::move(after));
  setActiveLabel(*label);
  return *label;
}

bool EditSession::renameSegment(std::uint16_t label, const QString& name) {
  auto map = activeMap();
  const core::Segment* s = map ? map->segment(label) : nullptr;
  if (s == nullptr || name.isEmpty() || s->name == name.toStdString()) {
    return false;
  }
  auto after = map->segments();
  for (core::Segment& x : after) {
    if (x.label == label) {
      x.name = name.toStdString();
    }
  }
  return pushTableEdit("Rename segment", std::move(after));
}

bool EditSession::recolorSegment(std::uint16_t label, const std::array<std::uint8_t, 3>& rgb) {
  auto map = activeMap();
  const core::Segment* s = map ? map->segment(label) : nullptr;
  if (s == nullptr || s->color == rgb) {
    return false;
  }
  auto after = map->segments();
  for (core::Segment& x : after) {
    if (x.label == label) {
      x.color = rgb;
    }
  }
  return pushTableEdit("Recolour segment", std::move(after));
}

bool EditSession::moveSegment(std::uint16_t label, int delta) {
  auto map = activeMap();
  if (!map) {
    return false;
  }
  auto after = map->segments();
  const auto it = std::find_if(after.begin(), after.end(),
                               [label](const core::Segment& s) { return s.label == label; });
  const long from = it - after.begin();
  const long to = from + delta;
  if (it == after.end() || to < 0 || to >= static_cast<long>(after.size())) {
    return false;
  }
  std::swap(after[std::size_t(from)], after[std::size_t(to)]);
  return pushTableEdit("Reorder segments", std::move(after));
}

void EditSession::setSegmentVisible(std::uint16_t label, bool visible) {
  auto map = activeMap();
  core::Segment* s = map ? map->segment(label) : nullptr;
  if (s != nullptr && s->visible != visible) {
    s->visible = visible;
    tableEdited();
  }
}

void EditSession::setSegmentLocked(std::uint16_t label, bool locked) {
  auto map = activeMap();
  core::Segment* s = map ? map->segment(label) : nullptr;
  if (s != nullptr && s->locked != locked) {
    s->locked = locked;
    tableEdited();
  }
}

void EditSession::tableEdited() {
  document_.markModified(*activeMap());
  document_.segmentsChanged(*activeMap());
  flush();
}

bool EditSession::deleteSegment(std::uint16_t label, core::VoxelDelta cleared) {
  auto map = activeMap();
  if (!map || map->segment(label) == nullptr) {
    return false;
  }
  if (map->isLocked(label)) {
    Q_EMIT statusMessage(tr("Unlock the segment before deleting it"));
    return false;
  }
  cleared.apply(*map, true);
  auto after = map->segments();
  std::erase_if(after, [label](const core::Segment& s) { return s.label == label; });
  return pushTableEdit("Delete segment", std::move(after), std::move(cleared));
}

bool EditSession::mergeSegments(std::uint16_t into, std::uint16_t from, core::VoxelDelta moved) {
  auto map = activeMap();
  if (!map || into == from || map->segment(into) == nullptr || map->segment(from) == nullptr) {
    return false;
  }
  if (map->isLocked(into) || map->isLocked(from)) {
    Q_EMIT statusMessage(tr("Unlock both segments before merging them"));
    return false;
  }
  moved.apply(*map, true);
  auto after = map->segments();
  std::erase_if(after, [from](const core::Segment& s) { return s.label == from; });
  return pushTableEdit("Merge segments", std::move(after), std::move(moved));
}

void EditSession::undo() {
  if (busy()) {
    const QString title = busyTitle_;
    if (cancelBusy_) {
      cancelBusy_();
    }
    clearBusy();
    Q_EMIT statusMessage(tr("Cancelled: %1").arg(title));
    return;
  }
  document_.undoStack().undo();
  flush();
}

void EditSession::redo() {
  if (refuseEdit()) {
    return;
  }
  document_.undoStack().redo();
  flush();
}

void EditSession::setBusy(const QString& title, std::function<void()> cancel) {
  busyTitle_ = title;
  cancelBusy_ = std::move(cancel);
  Q_EMIT busyChanged(true);
}

void EditSession::clearBusy() {
  if (busyTitle_.isEmpty()) {
    return;
  }
  busyTitle_.clear();
  cancelBusy_ = nullptr;
  Q_EMIT busyChanged(false);
}

bool EditSession::refuseEdit() {
  if (!busy()) {
    return false;
  }
  Q_EMIT statusMessage(
      tr("The label map is busy (%1): wait, or cancel it (Undo cancels)").arg(busyTitle_));
  return true;
}

bool EditSession::hasUnsavedChanges() const {
  return document_.hasUnsavedChanges();
}

void EditSession::markSaved(const core::LabelMap& map) {
  document_.markSaved(map);
  flush();
}

void EditSession::discardRecovery() {
  document_.discardJournals();
}

void EditSession::flush() {
  document_.flushChanges();
  Q_EMIT undoStateChanged();
  const bool modified = hasUnsavedChanges();
  if (modified != lastModified_) {
    lastModified_ = modified;
    Q_EMIT modifiedChanged(modified);
  }
}

void EditSession::onChange(const core::DocumentChange& c) {
  switch (c.kind) {
    case core::ChangeKind::Image:  // the label maps went with the old image
    case core::ChangeKind::LabelMaps: {
      std::vector<viewers::LabelDisplayState::MapPtr> maps;
      for (const auto& m : document_.labelMaps()) {
        if (m != document_.activeLabelMap()) {
          maps.push_back(m);
        }
      }
      if (document_.activeLabelMap()) {
        maps.push_back(document_.activeLabelMap());  // drawn on top
      }
      display_->setLabelMaps(std::move(maps));
      Q_EMIT labelMapsChanged();
      Q_EMIT segmentsChanged();
      break;
    }
    case core::ChangeKind::Voxels:
      if (const auto it = mirrors_.find(c.labelMap); it != mirrors_.end()) {
        it->second->touch(c.box);
      }
      display_->voxelsChanged(*c.labelMap, c.box);
      Q_EMIT voxelsChanged(c.box);
      break;
    case core::ChangeKind::Segments:
      display_->segmentsChanged(*c.labelMap);
      Q_EMIT segmentsChanged();
      break;
  }
}

}  // namespace delineate::app
