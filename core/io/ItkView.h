#pragma once
// Zero-copy ITK images over a Volume's (or any VoxelBuffer's) voxels. Include only in .cpp files:
// it pulls in ITK headers.
#include <itkImage.h>
#include <itkImportImageContainer.h>
#include <itkRGBPixel.h>

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

// The R, G, B channels of a colour Volume (T: the channel type) as an RGB image, zero-copy.
template <class T>
typename itk::Image<itk::RGBPixel<T>, 3>::Pointer itkColourView(const Volume& v) {
  const auto colour = v.sharedColour();
  if (!colour || colour->type() != scalarTypeOf<T>()) {
    throw Error(ErrorKind::Internal, {}, "itkColourView: not a colour image of that type");
  }
  using Pixel = itk::RGBPixel<T>;
  static_assert(sizeof(Pixel) == 3 * sizeof(T));
  auto grey = itkImageView<T>(v);  // for the grid
  auto image = itk::Image<Pixel, 3>::New();
  image->SetRegions(grey->GetLargestPossibleRegion());
  image->SetSpacing(grey->GetSpacing());
  image->SetOrigin(grey->GetOrigin());
  image->SetDirection(grey->GetDirection());
  image->GetPixelContainer()->SetImportPointer(
      reinterpret_cast<Pixel*>(const_cast<T*>(colour->as<T>())), colour->count() / 3, false);
  return image;
}

}  // namespace delineate::core
