#pragma once
// Points the user placed for the AI (positive and negative clicks, extreme points), shared by all
// slice views: each draws the markers lying on its current slice. Qt- and VTK-free.
#include <vector>

#include "core/model/ImageGeometry.h"
#include "viewers/ObserverList.h"

namespace delineate::viewers {

struct Marker {
  enum Kind { Positive, Negative, Extreme };
  core::Vec3 world{};
  Kind kind = Positive;
  // A prompt (box, scribble, lasso): its outline on the slice through `world`, drawn as a line
  // in the marker's colour instead of a ring.
  std::vector<core::Vec3> outline;
  bool closed = false;
  bool operator==(const Marker&) const = default;
};

class MarkerState {
 public:
  void setMarkers(std::vector<Marker> markers);
  const std::vector<Marker>& markers() const { return markers_; }

  int addObserver(std::function<void()> observer) { return observers_.add(std::move(observer)); }
  void removeObserver(int id) { observers_.remove(id); }

 private:
  std::vector<Marker> markers_;
  ObserverList<> observers_;
};

}  // namespace delineate::viewers
