#include "core/mammo/ReadingGeometry.h"

#include <algorithm>

namespace delineate::core::mammo {

namespace {

// +1 when depth grows with the column (chest wall stored on the left), else -1.
double depthSign(const PlacedImage& image) {
  return image.storedWall == ChestWall::Left ? 1.0 : -1.0;
}

double wallColumn(const PlacedImage& image) {
  return image.storedWall == ChestWall::Left ? 0.0 : static_cast<double>(image.columns);
}

}  // namespace

double fitPixelsPerMm(const PlacedImage& image, int width, int height) {
  const double w = static_cast<double>(image.columns) * image.spacing;
  const double h = static_cast<double>(image.rows) * image.spacing;
  if (w <= 0 || h <= 0 || width <= 0 || height <= 0) {
    return 1.0;
  }
  return std::min(width / w, height / h);
}

std::array<double, 2> chestWallMm(const PlacedImage& image, double column, double row) {
  return {(column - wallColumn(image)) * depthSign(image) * image.spacing, row * image.spacing};
}

std::array<double, 2> imagePoint(const PlacedImage& image, double depthMm, double heightMm) {
  return {wallColumn(image) + depthSign(image) * depthMm / image.spacing, heightMm / image.spacing};
}

ViewTransform placeImage(const PlacedImage& image, ChestWall wanted, const LinkedZoom& zoom,
                         int width, int height) {
  const double pxPerMm = zoom.pixelsPerMm.value_or(fitPixelsPerMm(image, width, height));
  // Aligned: the chest wall flush with the wanted edge, the image centred vertically.
  const double depth = zoom.depthMm.value_or(width / 2.0 / pxPerMm);
  const double heightMm =
      zoom.heightMm.value_or(static_cast<double>(image.rows) * image.spacing / 2);
  const auto [column, row] = imagePoint(image, depth, heightMm);
  ViewTransform t;
  t.scale = pxPerMm * image.spacing;
  t.centerColumn = column;
  t.centerRow = row;
  // On screen depth must grow away from the wanted edge: rightwards for a wall on the left.
  const bool depthRightwards = wanted == ChestWall::Left;
  const bool storedRightwards = image.storedWall == ChestWall::Left;
  t.mirror = depthRightwards != storedRightwards;
  return t;
}

}  // namespace delineate::core::mammo
