#pragma once
// A structure from its six extreme points (DEXTR's input, without the network): the points'
// bounding box bounds the result; the image along the three paths between opposite points tells
// the structure's tissues; positive clicks where the paths show them, plus the six points
// themselves (edge clicks), go to the PointGuidedSegmenter, clipped to the box.
#include "annotation/engine/Clicks.h"
#include "annotation/engine/PointGuidedSegmenter.h"
#include "annotation/engine/SegmenterOptions.h"
#include "annotation/ops/BoxMask.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::annotation {

class ExtremePointSegmenter {
 public:
  explicit ExtremePointSegmenter(SegmenterOptions options = {}) : options_(options) {}

  // Throws core::Error(InvalidInput) when a point lies outside the image.
  BoxMask segment(const core::Volume& image, const ExtremePoints& points,
                  core::ProgressSink& progress) const;

  // The bounding box of the points.
  static core::VoxelBox boxOf(const ExtremePoints& points);
  // The six extreme voxels of a mask (what a user would click; for simulations and tests): per
  // axis the set voxels with the least and the greatest coordinate, each the one nearest the
  // middle of the mask's box in the other two axes. Empty mask: all zero.
  static ExtremePoints extremePointsOf(const BoxMask& mask);
  // The clicks segment() hands on. The 3x3x3 means along the paths between opposite points
  // (least and greatest along an axis; inner 80 %) show one tissue, or two when they split
  // into two groups 6 noise SDs apart holding a fifth each (a kidney's sinus and parenchyma);
  // for each tissue and path, the middle of the longest run of samples within 2.5 robust SDs
  // of the tissue (deep inside it); then the six points themselves (edge clicks).
  static Guidance guidanceFor(const core::Volume& image, const ExtremePoints& points);

 private:
  SegmenterOptions options_;
};

}  // namespace delineate::annotation
