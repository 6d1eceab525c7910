#pragma once
// Segment surfaces for the 3D view, built off the GUI thread (3D Slicer's closed-surface
// representation): vtkDiscreteFlyingEdges3D over a snapshot of the label map, optionally
// smoothed with vtkWindowedSincPolyDataFilter, with normals. No Qt.
//
// The GUI thread copies the part of the label map that holds segments (snapshotLabels); a job
// turns the copy into one vtkPolyData (buildSegmentSurfaces) whose point scalars are the label
// values, in the label map's index space (i*sx, j*sy, k*sz) like the volume rendering, placed in
// LPS by indexSpaceToWorld(). The worker touches nothing the GUI thread uses.
#include <vtkSmartPointer.h>

#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/VoxelBox.h"

class vtkPolyData;

namespace delineate::viewers {

struct LabelSnapshot {
  core::ImageGeometry geometry;       // the label map's grid
  core::VoxelBox box;                 // the copied voxels (everything outside counts as 0)
  std::vector<std::uint16_t> voxels;  // box voxels, x fastest
  std::vector<std::uint16_t> labels;  // the segments to build surfaces for
};

struct SurfaceOptions {
  bool smooth = true;
  int iterations = 15;    // windowed sinc smoothing (Slicer's default factor 0.5 ~ pass band 0.1)
  double passBand = 0.1;  // lower is smoother
};

// The smallest box holding every non-zero voxel of `map` (empty when there is none).
core::VoxelBox labelContentBox(const core::LabelMap& map);

// GUI thread: a copy of `box` of `map` and the labels to build.
LabelSnapshot snapshotLabels(const core::LabelMap& map, const core::VoxelBox& box,
                             std::vector<std::uint16_t> labels);

// Any thread: the surfaces of the snapshot's labels (an empty polydata when there is nothing to
// show). Throws CancelledError when `progress` is cancelled between stages.
vtkSmartPointer<vtkPolyData> buildSegmentSurfaces(const LabelSnapshot& snapshot,
                                                  const SurfaceOptions& options,
                                                  core::ProgressSink& progress);

}  // namespace delineate::viewers
