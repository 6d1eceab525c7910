#pragma once
// What a view tells a tool about the pointer, free of Qt: where it is in patient space and which
// slice plane it is on. Views translate their mouse events into these (ToolEventRouter).
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

enum class PointerAction { Press, Move, Release, Cancel };
enum class PointerButton { None, Left, Middle, Right };

struct PointerEvent {
  PointerAction action = PointerAction::Move;
  PointerButton button = PointerButton::Left;
  bool shift = false;
  bool control = false;
  bool alt = false;
  core::Vec3 world{0, 0, 0};        // LPS mm, on the slice plane
  core::Vec3 sliceNormal{0, 0, 1};  // unit normal of the view's slice plane
};

}  // namespace delineate::annotation
