#include "viewers/SegmentSurfaceBuilder.h"

#include <vtkDiscreteFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataNormals.h>
#include <vtkUnsignedShortArray.h>
#include <vtkWindowedSincPolyDataFilter.h>

#include <algorithm>
#include <cstring>

namespace delineate::viewers {

core::VoxelBox labelContentBox(const core::LabelMap& map) {
  return core::contentBox(map);
}

LabelSnapshot snapshotLabels(const core::LabelMap& map, const core::VoxelBox& box,
                             std::vector<std::uint16_t> labels) {
  LabelSnapshot s;
  s.geometry = map.geometry();
  s.box = box;
  s.labels = std::move(labels);
  if (box.empty()) {
    return s;
  }
  const std::size_t nx = box.hi[0] - box.lo[0];
  s.voxels.resize(box.count());
  std::uint16_t* out = s.voxels.data();
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      std::memcpy(out, map.data() + map.index(box.lo[0], j, k), nx * sizeof(std::uint16_t));
      out += nx;
    }
  }
  return s;
}

vtkSmartPointer<vtkPolyData> buildSegmentSurfaces(const LabelSnapshot& s,
                                                  const SurfaceOptions& options,
                                                  core::ProgressSink& progress) {
  auto empty = vtkSmartPointer<vtkPolyData>::New();
  if (s.box.empty() || s.labels.empty()) {
    return empty;
  }
  progress.report(0, "copying");
  // The box grown by one voxel of background on every side, so that surfaces close at the
  // edge of the volume; extents are voxel indices, so points land at index * spacing.
  const int lo[3] = {int(s.box.lo[0]) - 1, int(s.box.lo[1]) - 1, int(s.box.lo[2]) - 1};
  const int hi[3] = {int(s.box.hi[0]), int(s.box.hi[1]), int(s.box.hi[2])};
  vtkNew<vtkImageData> image;
  image->SetExtent(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
  image->SetSpacing(s.geometry.spacing[0], s.geometry.spacing[1], s.geometry.spacing[2]);
  image->SetOrigin(0, 0, 0);
  image->AllocateScalars(VTK_UNSIGNED_SHORT, 1);
  auto* dst = static_cast<std::uint16_t*>(image->GetScalarPointer());
  const std::size_t px = std::size_t(hi[0] - lo[0] + 1), py = std::size_t(hi[1] - lo[1] + 1);
  std::memset(dst, 0, px * py * std::size_t(hi[2] - lo[2] + 1) * sizeof(std::uint16_t));
  const std::size_t nx = s.box.hi[0] - s.box.lo[0], ny = s.box.hi[1] - s.box.lo[1];
  const std::size_t nz = s.box.hi[2] - s.box.lo[2];
  for (std::size_t k = 0; k < nz; ++k) {
    for (std::size_t j = 0; j < ny; ++j) {
      std::memcpy(dst + ((k + 1) * py + (j + 1)) * px + 1, s.voxels.data() + (k * ny + j) * nx,
                  nx * sizeof(std::uint16_t));
    }
  }
  progress.throwIfCancelled();

  progress.report(0.1, "surfaces");
  vtkNew<vtkDiscreteFlyingEdges3D> contour;
  contour->SetInputData(image);
  for (std::size_t i = 0; i < s.labels.size(); ++i) {
    contour->SetValue(static_cast<int>(i), s.labels[i]);
  }
  contour->ComputeNormalsOff();
  contour->ComputeGradientsOff();
  contour->ComputeScalarsOn();
  contour->Update();
  progress.throwIfCancelled();
  vtkSmartPointer<vtkPolyData> surfaces = contour->GetOutput();
  if (surfaces->GetNumberOfPoints() == 0) {
    return empty;
  }

  if (options.smooth) {
    progress.report(0.5, "smoothing");
    vtkNew<vtkWindowedSincPolyDataFilter> smooth;
    smooth->SetInputData(surfaces);
    smooth->SetNumberOfIterations(options.iterations);
    smooth->SetPassBand(options.passBand);
    smooth->BoundarySmoothingOff();
    smooth->FeatureEdgeSmoothingOff();
    smooth->NonManifoldSmoothingOn();
    smooth->NormalizeCoordinatesOn();
    smooth->Update();
    progress.throwIfCancelled();
    surfaces = smooth->GetOutput();
  }

  progress.report(0.85, "normals");
  vtkNew<vtkPolyDataNormals> normals;
  normals->SetInputData(surfaces);
  normals->SplittingOff();
  normals->ConsistencyOn();
  normals->Update();
  progress.report(1, "");
  return normals->GetOutput();
}

}  // namespace delineate::viewers
