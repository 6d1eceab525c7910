#pragma once
// Smoothing (Slicer's Smoothing effect): binary median, morphological opening and closing.
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"

namespace delineate::annotation {

enum class SmoothingKind {
  Median,   // majority of a (2r+1)-voxel box per axis: removes spurs and fills dents
  Opening,  // erode then dilate with a ball: removes parts thinner than the ball
  Closing,  // dilate then erode with a ball: fills holes and gaps narrower than the ball
};

// The mask smoothed with a kernel of `radiusMm`, converted to a radius in voxels per axis
// (round(radiusMm / spacing[a]); 0 leaves that axis alone). The ball is ITK's
// FlatStructuringElement::Ball (offsets with sum (d[a] / (r[a] + 0.5))^2 <= 1). The result is
// returned over the input box: none of the three can put voxels outside the bounding box of the
// input's content; the work image is padded so that the box edge is not taken for the mask's.
BoxMask smoothMask(const BoxMask& mask, SmoothingKind kind, double radiusMm,
                   const core::Vec3& spacing, core::ProgressSink& progress);

}  // namespace delineate::annotation
