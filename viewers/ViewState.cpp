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

void ViewState::setFrame(core::VolumePtr frame) {
  volume_ = std::move(frame);
  notify(FrameChanged);
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
  return observers_.add(std::move(observer));
}

void ViewState::removeObserver(int id) {
  observers_.remove(id);
}

void ViewState::notify(unsigned changes) {
  observers_.notify(changes);
}

}  // namespace delineate::viewers
