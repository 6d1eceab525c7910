#include "viewers/ViewState.h"

#include <vector>

#include "viewers/SliceGeometry.h"

namespace delineate::viewers {

void ViewState::setVolume(core::VolumePtr volume) {
  volume_ = std::move(volume);
  if (volume_) {
    const auto& g = volume_->geometry();
    cursor_ =
        g.indexToWorld({static_cast<double>(g.size[0] / 2), static_cast<double>(g.size[1] / 2),
                        static_cast<double>(g.size[2] / 2)});
    window_ = defaultWindow(*volume_);
  }
  notify(VolumeChanged | CursorChanged | WindowChanged);
}

void ViewState::setCursor(const core::Vec3& world) {
  const core::Vec3 snapped = volume_ ? snapToVoxel(volume_->geometry(), world) : world;
  if (snapped == cursor_) {
    return;
  }
  cursor_ = snapped;
  notify(CursorChanged);
}

void ViewState::setWindowLevel(const WindowLevel& windowLevel) {
  if (windowLevel == window_) {
    return;
  }
  window_ = windowLevel;
  notify(WindowChanged);
}

int ViewState::addObserver(Observer observer) {
  const int id = nextId_++;
  observers_.emplace(id, std::move(observer));
  return id;
}

void ViewState::removeObserver(int id) {
  observers_.erase(id);
}

void ViewState::notify(unsigned changes) {
  // Snapshot the ids: an observer may add or remove observers while we notify.
  std::vector<int> ids;
  ids.reserve(observers_.size());
  for (const auto& entry : observers_) {
    ids.push_back(entry.first);
  }
  for (int id : ids) {
    const auto it = observers_.find(id);
    if (it != observers_.end()) {
      const Observer observer = it->second;
      observer(changes);
    }
  }
}

}  // namespace delineate::viewers
