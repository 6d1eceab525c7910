#include "core/model/Document.h"

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
  if (journal_) {
    journal_->discard();
    journal_.reset();
  }
  post(ChangeKind::Image);
}

std::shared_ptr<LabelMap> Document::addLabelMap(const std::string& name,
                                                std::vector<Segment> segments) {
  if (!image_) {
    throw Error(ErrorKind::InvalidInput, name, "open an image before adding a label map");
  }
  auto labels = std::make_shared<LabelMap>(name, image_->geometry(), std::move(segments));
  addLabelMap(labels);
  return labels;
}

void Document::addLabelMap(std::shared_ptr<LabelMap> labels) {
  if (!image_) {
    throw Error(ErrorKind::InvalidInput, labels->name(), "open an image before adding a label map");
  }
  const std::string diff = image_->geometry().differenceFrom(labels->geometry());
  if (!diff.empty()) {
    throw Error(ErrorKind::InvalidInput, labels->name(),
                "label map grid differs from the image: " + diff);
  }
  labelMaps_.push_back(std::move(labels));
  setActiveLabelMap(labelMaps_.size() - 1);
  post(ChangeKind::LabelMaps);
}

std::shared_ptr<LabelMap> Document::activeLabelMap() const {
  return active_ < labelMaps_.size() ? labelMaps_[active_] : nullptr;
}

void Document::setActiveLabelMap(std::size_t index) {
  if (index >= labelMaps_.size()) {
    return;
  }
  active_ = index;
  if (!recoveryRoot_.empty()) {
    if (journal_) {
      journal_->discard();
    }
    journal_ = std::make_unique<EditJournal>(recoveryRoot_, *labelMaps_[active_],
                                             image_ ? image_->info().sourcePath : std::string());
  }
  post(ChangeKind::LabelMaps);
}

void Document::markSaved() {
  undo_.setClean();
  if (journal_ && activeLabelMap()) {
    journal_->compact(*activeLabelMap());
  }
}

void Document::enableRecovery(const std::filesystem::path& root) {
  recoveryRoot_ = root;
  if (activeLabelMap()) {
    setActiveLabelMap(active_);
  }
}

void Document::segmentsChanged(const LabelMap& labels) {
  if (journal_ && &labels == activeLabelMap().get()) {
    journal_->recordSegments(labels.segments());
  }
  pendingSegments_[&labels] = true;
}

void Document::voxelsChanged(const LabelMap& labels, const VoxelBox& box) {
  pending_[&labels].include(box);
}

void Document::onUndoEvent(Command& command, UndoEvent event) {
  auto* edit = dynamic_cast<VoxelEditCommand*>(&command);
  if (!edit) {
    return;
  }
  if (journal_ && edit->map() == activeLabelMap()) {
    journal_->recordDelta(edit->delta(), event != UndoEvent::Undone);
  }
  pending_[edit->map().get()].include(edit->delta().box());
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
