#pragma once
// Qt- and VTK-free state the slice views share: the displayed volume, the linked cursor (a world
// position that every view's slice passes through, ITK-SNAP's crosshair) and the window/level.
// Views observe it; a click in one view moves the cursor and the others follow.
#include <functional>
#include <map>

#include "core/model/Volume.h"
#include "viewers/ObserverList.h"
#include "viewers/WindowLevel.h"

namespace delineate::viewers {

class ViewState {
 public:
  // FrameChanged: another frame of the same 4-D image, on the same grid.
  enum Change : unsigned {
    VolumeChanged = 1,
    CursorChanged = 2,
    WindowChanged = 4,
    FrameChanged = 8
  };
  using Observer = std::function<void(unsigned changes)>;

  // Sets the volume, puts the cursor on its centre voxel and applies its default window.
  void setVolume(core::VolumePtr volume);
  const core::VolumePtr& volume() const { return volume_; }
  // Shows another frame of the same 4-D image: the cursor, the window and every view's zoom stay.
  void setFrame(core::VolumePtr frame);

  // The cursor snaps to the nearest voxel centre inside the volume (when one is set).
  void setCursor(const core::Vec3& world);
  const core::Vec3& cursor() const { return cursor_; }

  void setWindowLevel(const WindowLevel& windowLevel);
  const WindowLevel& windowLevel() const { return window_; }

  int addObserver(Observer observer);
  void removeObserver(int id);

 private:
  void notify(unsigned changes);

  core::VolumePtr volume_;
  core::Vec3 cursor_{0, 0, 0};
  WindowLevel window_{};
  ObserverList<unsigned> observers_;
};

}  // namespace delineate::viewers
