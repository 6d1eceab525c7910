#include "viewers/MarkerState.h"

namespace delineate::viewers {

void MarkerState::setMarkers(std::vector<Marker> markers) {
  if (markers == markers_) {
    return;
  }
  markers_ = std::move(markers);
  observers_.notify();
}

}  // namespace delineate::viewers
