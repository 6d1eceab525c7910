#include "viewers/SurfaceDistanceColoring.h"

#include <vtkDataArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/metrics/SignedDistanceField.h"

namespace delineate::viewers {

namespace {

// `box` grown by one voxel on every side, within the grid: smoothed vertices stray a little
// beyond the half-voxel boundary of the voxels they enclose.
core::VoxelBox grown(const core::VoxelBox& box, const core::Size3& size) {
  core::VoxelBox out = box;
  for (int a = 0; a < 3; ++a) {
    out.lo[a] = box.lo[a] > 0 ? box.lo[a] - 1 : 0;
    out.hi[a] = std::min(box.hi[a] + 1, size[a]);
  }
  return out;
}

}  // namespace

vtkSmartPointer<vtkPolyData> buildDistanceSurfaces(const core::LabelMap& reference,
                                                   const core::LabelMap& test,
                                                   const std::vector<std::uint16_t>& labels,
                                                   const SurfaceOptions& options,
                                                   core::ProgressSink& progress) {
  const core::VoxelBox box = labelContentBox(test);
  core::SubProgress building(progress, 0.0, 0.5);
  vtkSmartPointer<vtkPolyData> surfaces =
      buildSegmentSurfaces(snapshotLabels(test, box, labels), options, building);
  const vtkIdType points = surfaces->GetNumberOfPoints();
  if (points == 0) {
    return surfaces;
  }
  const core::ImageGeometry& grid = test.geometry();
  std::map<std::uint16_t, core::DistanceField> fields;
  for (std::size_t n = 0; n < labels.size(); ++n) {
    core::SubProgress measuring(progress, 0.5 + 0.45 * double(n) / double(labels.size()),
                                0.5 + 0.45 * double(n + 1) / double(labels.size()));
    fields.emplace(labels[n], core::signedDistanceField(reference, labels[n], grown(box, grid.size),
                                                        measuring));
  }
  progress.throwIfCancelled();
  vtkDataArray* values = surfaces->GetPointData()->GetScalars();
  vtkNew<vtkFloatArray> distances;
  distances->SetName(kSignedDistanceArray);
  distances->SetNumberOfTuples(points);
  for (vtkIdType p = 0; p < points; ++p) {
    double x[3];
    surfaces->GetPoint(p, x);
    const auto field = fields.find(static_cast<std::uint16_t>(std::lround(values->GetTuple1(p))));
    const double d = field == fields.end()
                         ? std::nan("")
                         : field->second.at(x[0] / grid.spacing[0], x[1] / grid.spacing[1],
                                            x[2] / grid.spacing[2]);
    distances->SetValue(p, static_cast<float>(d));
  }
  surfaces->GetPointData()->AddArray(distances);
  progress.report(1.0, "Surface distances");
  return surfaces;
}

}  // namespace delineate::viewers
