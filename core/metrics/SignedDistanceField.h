#pragma once
// The signed distance (mm) to the surface of one label of a label map, over a box of its grid:
// for colouring another surface by its distance to this label (the compare view samples it at
// the vertices of the test surface, in the map's continuous voxel index).
//
// The surface is the label's half-voxel boundary: the faces between a voxel of the label and a
// face neighbour not of the label (outside the grid counts as not of the label), whose centres
// are the vertices discrete flying edges puts on that boundary. The value at a voxel centre is
// the exact Euclidean distance (spacing-aware) to the nearest such face centre, negative inside
// the label and positive outside; between voxel centres it is trilinear. So it is 0 midway
// between an inside and an outside voxel along a flat face, and reads about +3 on a surface 3 mm
// outside the label. Computed by the separable exact transform of ParabolaEnvelope, once per face
// orientation. docs/metrics.md.
#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

namespace delineate::core {

struct DistanceField {
  ImageGeometry grid;     // the label map's grid
  VoxelBox box;           // the voxels the field covers
  std::vector<float> mm;  // one value per box voxel, i fastest; +infinity everywhere when the
                          // label has no voxel

  // Trilinear in the continuous voxel index of the grid (voxel centres at integers), the index
  // clamped to the box's voxel centres. +infinity for an empty box or an absent label.
  double at(double i, double j, double k) const;
};

// The field of `label` (not 0) over `box` (clamped to the grid). The transform runs over the box
// together with the label's bounding box, so that the surface outside the box counts: memory
// 8 bytes per voxel of that union, besides the 4 per box voxel kept. Parallel over slices on
// hardwareThreads() threads; cancellable (CancelledError). Throws Error(InvalidInput) for label 0.
DistanceField signedDistanceField(const LabelMap& map, std::uint16_t label, const VoxelBox& box,
                                  ProgressSink& progress);

}  // namespace delineate::core
