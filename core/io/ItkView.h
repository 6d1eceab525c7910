#pragma once
// Zero-copy ITK images over a Volume's (or any VoxelBuffer's) voxels. Include only in .cpp files:
// it pulls in ITK headers.
#include <itkImage.h>
#include <itkImportImageContainer.h>

#include <memory>

#include "core/Error.h"
#include "core/io/ItkInit.h"
#include "core/model/Volume.h"

namespace delineate::core {

template <class T>
typename itk::Image<T, 3>::Pointer itkImageView(const ImageGeometry& g,
                                                std::shared_ptr<const VoxelBuffer> voxels) {
  if (voxels->type() != scalarTypeOf<T>()) {
    throw Error(ErrorKind::Internal, {}, "itkImageView: pixel type mismatch");
  }
  ensureItkInitialized();
  using ImageType = itk::Image<T, 3>;
  auto image = ImageType::New();
  typename ImageType::RegionType region;
  typename ImageType::SpacingType spacing;
  typename ImageType::PointType origin;
  typename ImageType::DirectionType direction;
  for (unsigned a = 0; a < 3; ++a) {
    region.SetSize(a, g.size[a]);
    spacing[a] = g.spacing[a];
    origin[a] = g.origin[a];
    for (unsigned b = 0; b < 3; ++b) {
      direction(a, b) = g.direction[3 * a + b];
    }
  }
  image->SetRegions(region);
  image->SetSpacing(spacing);
  image->SetOrigin(origin);
  image->SetDirection(direction);
  // The container does not own the memory; the Volume's buffer outlives the view as long as the
  // caller keeps `voxels` (or the Volume) alive.
  image->GetPixelContainer()->SetImportPointer(const_cast<T*>(voxels->as<T>()), voxels->count(),
                                               false);
  return image;
}

template <class T>
typename itk::Image<T, 3>::Pointer itkImageView(const Volume& v) {
  return itkImageView<T>(v.geometry(), v.sharedVoxels());
}

}  // namespace delineate::core
