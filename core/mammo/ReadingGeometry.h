#pragma once
// Where a mammogram lies in its viewport: mirrored so that its chest wall is against the edge the
// hanging protocol asks for, aligned there, and zoomed and panned together with the other
// viewports. The linked part (LinkedZoom) is in millimetres measured from the chest wall, so
// that the right and left breast show the same depth and height even though one is mirrored.
#include <optional>

#include "core/mammo/HangingProtocol.h"
#include "core/mammo/PyramidRenderer.h"

namespace delineate::core::mammo {

struct LinkedZoom {
  // nullopt: each viewport fits its image; else screen pixels per millimetre in every viewport.
  std::optional<double> pixelsPerMm;
  // The point at the viewports' centres as (depth from the chest wall, height from the image's
  // top edge), mm. nullopt: the image is aligned at the chest wall and centred vertically.
  std::optional<double> depthMm;
  std::optional<double> heightMm;
};

struct PlacedImage {
  std::size_t columns = 0;
  std::size_t rows = 0;
  double spacing = 0.1;                    // mm per pixel (square pixels)
  ChestWall storedWall = ChestWall::Left;  // as stored (storedChestWall())
};

// Fit scale of `image` in a viewport of width x height (screen pixels per mm).
double fitPixelsPerMm(const PlacedImage& image, int width, int height);

ViewTransform placeImage(const PlacedImage& image, ChestWall wanted, const LinkedZoom& zoom,
                         int width, int height);

// The chest-wall coordinates (depth, height; mm) of an image point, and back.
std::array<double, 2> chestWallMm(const PlacedImage& image, double column, double row);
std::array<double, 2> imagePoint(const PlacedImage& image, double depthMm, double heightMm);

}  // namespace delineate::core::mammo
