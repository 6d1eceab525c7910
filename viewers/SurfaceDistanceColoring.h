#pragma once
// The compare view's 3D picture: the test map's segment surfaces with, at every vertex, its
// signed distance in mm to the reference surface of the same label (core::signedDistanceField;
// negative inside the reference: under-segmented; positive outside: over-segmented), as the point
// array kSignedDistanceArray. Built off the GUI thread; VolumeScene colours it with a diverging
// blue–white–red scale (VolumeScene::setSurfaceDistanceRange). No Qt.
#include <vtkSmartPointer.h>

#include <cstdint>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "viewers/SegmentSurfaceBuilder.h"

class vtkPolyData;

namespace delineate::viewers {

inline constexpr const char* kSignedDistanceArray = "SignedDistanceMm";

// Surfaces of `labels` of `test` (values as in `reference`, same grid) in the index space of the
// grid like buildSegmentSurfaces, with the distance array. Cancellable between stages.
vtkSmartPointer<vtkPolyData> buildDistanceSurfaces(const core::LabelMap& reference,
                                                   const core::LabelMap& test,
                                                   const std::vector<std::uint16_t>& labels,
                                                   const SurfaceOptions& options,
                                                   core::ProgressSink& progress);

}  // namespace delineate::viewers
