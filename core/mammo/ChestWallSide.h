#pragma once
// Which edge of a stored mammogram the chest wall lies against, so that the reading view can
// mirror it to face the other breast: the image edge with more tissue (brighter for MONOCHROME2,
// darker for MONOCHROME1) over its outer tenth. Images where both edges look alike (a flat or
// empty image) fall back to the usual storage convention: a right breast's chest wall on the
// right edge, a left breast's on the left.
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/ImagePyramid.h"

namespace delineate::core::mammo {

ChestWall storedChestWall(const ImagePyramid& pyramid, bool monochrome1, Laterality laterality);

}  // namespace delineate::core::mammo
