#include "core/document/Document.h"

#include "core/Error.h"
#include "core/edit/VoxelEditCommand.h"

namespace delineate::core {

Document::Document() {
  undo_.setObserver([this](Command& c, UndoEvent e) { onUndoEvent(c, e); });
}

Document::~Document() = default;

void Document::setImage(VolumePtr image) {
  image_ = std::move(image);
  labelMaps_.clear();
  active_ = 0;
  undo_.clear();
  discardJournals();
  states_.clear();
  post(ChangeKind::Image);
}

void Document::setImageFrame(VolumePtr frame) {
  if (!image_ || !frame) {
    throw Error(ErrorKind::InvalidInput, {}, "no 4-D image is open to show a frame of");
  }
  const std::string difference = frame->geometry().differenceFrom(image_->geometry());
  if (!difference.empty()) {
    throw Error(ErrorKind::InvalidInput, frame->info().sourcePath,
                "the frame's grid differs from the image's: " + difference);
  }
  image_ = std::move(frame);
  post(ChangeKind::Image);
}

std::shared_ptr<LabelMap> Document::addLabelMap(const std::string& name,
                                                std::vector<Segment> segments) {
  if (!image_) {
    throw Error(ErrorKind::InvalidInput, name, "open an image before adding a label map");
  }
  auto labels = std::make_shared<LabelMap>(name, image_->geometry(), std::move(segments));
  insertLabelMap(labels);
  startJournal(*labels, true);
  return labels;
}

void Document::addLabelMap(std::shared_ptr<LabelMap> labels) {
  insertLabelMap(labels);
  startJournal(*labels, false);
}

void Document::addRecoveredLabelMap(std::shared_ptr<LabelMap> labels,
                                    std::unique_ptr<Command> restore,
                                    std::unique_ptr<EditJournal> journal) {
  insertLabelMap(labels);
  states_[labels.get()].journal = std::move(journal);
  journaling_ = false;
  undo_.push(std::move(restore));
  journaling_ = true;
}

void Document::insertLabelMap(std::shared_ptr<LabelMap> labels) {
  if (!image_) {
    throw Error(ErrorKind::InvalidInput, labels->name(), "open an image before adding a label map");
  }
  const std::string diff = image_->geometry().differenceFrom(labels->geometry());
  if (!diff.empty()) {
    throw Error(ErrorKind::InvalidInput, labels->name(),
                "label map grid differs from the image: " + diff);
  }
  states_[labels.get()];
  labelMaps_.push_back(std::move(labels));
  setActiveLabelMap(labelMaps_.size() - 1);
  post(ChangeKind::LabelMaps);
}

void Document::startJournal(const LabelMap& labels, bool empty) {
  MapState& state = states_[&labels];
  if (!recoveryRoot_.empty() && !state.journal) {
    state.journal = std::make_unique<EditJournal>(
        recoveryRoot_, labels, image_ ? image_->info().sourcePath : std::string(), empty);
  }
}

std::shared_ptr<LabelMap> Document::activeLabelMap() const {
  return active_ < labelMaps_.size() ? labelMaps_[active_] : nullptr;
}

void Document::setActiveLabelMap(std::size_t index) {
  if (index >= labelMaps_.size()) {
    return;
  }
  active_ = index;
  post(ChangeKind::LabelMaps);
}

bool Document::isModified(const LabelMap& labels) const {
  const auto it = states_.find(&labels);
  if (it == states_.end()) {
    return false;
  }
  const MapState& s = it->second;
  const std::uint64_t top = s.applied.empty() ? 0 : s.applied.back();
  return s.forcedModified || top != s.savedTop;
}

bool Document::hasUnsavedChanges() const {
  for (const auto& map : labelMaps_) {
    if (isModified(*map)) {
      return true;
    }
  }
  return false;
}

std::uint64_t Document::editState(const LabelMap& labels) const {
  const auto it = states_.find(&labels);
  return it == states_.end() || it->second.applied.empty() ? 0 : it->second.applied.back();
}

void Document::markSavedAt(const LabelMap& labels, std::uint64_t state) {
  const auto it = states_.find(&labels);
  if (it == states_.end()) {
    return;
  }
  MapState& s = it->second;
  s.savedTop = state;
  if (editState(labels) == state) {
    s.forcedModified = false;
    if (s.journal) {
      s.journal->requestSnapshot();
    }
  }
}

void Document::markSaved(const LabelMap& labels) {
  const auto it = states_.find(&labels);
  if (it == states_.end()) {
    return;
  }
  MapState& s = it->second;
  s.savedTop = s.applied.empty() ? 0 : s.applied.back();
  s.forcedModified = false;
  if (s.journal) {
    s.journal->requestSnapshot();
  }
}

void Document::markModified(const LabelMap& labels) {
  if (const auto it = states_.find(&labels); it != states_.end()) {
    it->second.forcedModified = true;
  }
}

void Document::enableRecovery(const std::filesystem::path& root) {
  recoveryRoot_ = root;
  for (const auto& map : labelMaps_) {
    // Maps added before recovery was on: empty only if nothing was ever applied to them.
    startJournal(*map, false);
  }
}

EditJournal* Document::journal(const LabelMap& labels) {
  const auto it = states_.find(&labels);
  return it == states_.end() ? nullptr : it->second.journal.get();
}

void Document::discardJournals() {
  for (auto& [map, state] : states_) {
    if (state.journal) {
      state.journal->discard();
      state.journal.reset();
    }
  }
}

void Document::segmentsChanged(const LabelMap& labels) {
  if (EditJournal* j = journal(labels)) {
    j->recordSegments(labels.segments());
  }
  pendingSegments_[&labels] = true;
}

void Document::voxelsChanged(const LabelMap& labels, const VoxelBox& box) {
  pending_[&labels].include(box);
}

int Document::addCommandObserver(CommandObserver observer) {
  commandObservers_[nextObserver_] = std::move(observer);
  return nextObserver_++;
}

void Document::removeCommandObserver(int id) {
  commandObservers_.erase(id);
}

void Document::onUndoEvent(Command& command, UndoEvent event) {
  for (const auto& [id, observer] : commandObservers_) {
    observer(command, event);
  }
  const LabelMap* map = command.labelMap();
  const auto it = map ? states_.find(map) : states_.end();
  if (it == states_.end()) {
    return;
  }
  MapState& state = it->second;
  if (event == UndoEvent::Undone) {
    if (!state.applied.empty() && state.applied.back() == command.serial()) {
      state.applied.pop_back();
    }
  } else {
    state.applied.push_back(command.serial());
    if (state.applied.size() > undo_.maxEntries() + 1) {
      // Older entries can no longer be undone: their serials can never be the top again.
      state.applied.erase(state.applied.begin());
    }
  }
  auto* edit = dynamic_cast<VoxelEditCommand*>(&command);
  if (!edit) {
    return;
  }
  if (state.journal && journaling_) {
    state.journal->recordDelta(edit->delta(), event != UndoEvent::Undone);
  }
  pending_[map].include(edit->delta().box());
}

int Document::addObserver(Observer observer) {
  observers_[nextObserver_] = std::move(observer);
  return nextObserver_++;
}

void Document::removeObserver(int id) {
  observers_.erase(id);
}

void Document::post(ChangeKind kind) {
  pendingKinds_ |= 1u << static_cast<unsigned>(kind);
}

void Document::flushChanges() {
  std::vector<DocumentChange> changes;
  for (ChangeKind k : {ChangeKind::Image, ChangeKind::LabelMaps}) {
    if (pendingKinds_ & (1u << static_cast<unsigned>(k))) {
      changes.push_back({k, nullptr, {}});
    }
  }
  for (const auto& [map, box] : pending_) {
    changes.push_back({ChangeKind::Voxels, map, box});
  }
  for (const auto& [map, yes] : pendingSegments_) {
    if (yes) {
      changes.push_back({ChangeKind::Segments, map, {}});
    }
  }
  pendingKinds_ = 0;
  pending_.clear();
  pendingSegments_.clear();
  for (const DocumentChange& c : changes) {
    for (const auto& [id, observer] : observers_) {
      observer(c);
    }
  }
}

}  // namespace delineate::core
