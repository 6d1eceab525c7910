#pragma once
// A structure from its six extreme points (DEXTR's input, without the network): the points'
// bounding box bounds the result; the image along the three paths between opposite points tells
// the structure's tissue; positive clicks where the paths' middles show that tissue, plus the
// six points themselves (edge clicks), go to the PointGuidedSegmenter, clipped to the box.
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
  // The clicks segment() hands on: for each pair of opposite points (least and greatest along
  // an axis), the voxel nearest the middle of the path between them whose 3x3x3 mean lies
  // within 2.5 robust SDs of the median over the paths' middle halves; then the six points.
  static Guidance guidanceFor(const core::Volume& image, const ExtremePoints& points);

 private:
  SegmenterOptions options_;
};

}  // namespace delineate::annotation
