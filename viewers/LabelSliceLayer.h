#pragma once
// One label map drawn over a slice view: filled and outlined segments. No Qt.
//
// The label voxels reach VTK without a copy (makeVtkLabelImage); a nearest-neighbour
// vtkImageReslice samples them on the view's slice grid, a colour lookup table (one RGBA fill
// and outline colour per label value) turns the samples into RGBA, drawn as textured tiles of
// kTile x kTile pixels. After an edit only the pixels the changed voxel box can reach are
// resliced (the reslice output extent is just that rectangle) and only the tiles they fall in
// are marked Modified, so a brush stamp re-uploads a few small textures, not the slice and never
// the 3D map. Tiles without any visible pixel are hidden (not drawn at all).
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/model/LabelMap.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/SliceGeometry.h"

class vtkImageActor;
class vtkImageData;
class vtkImageReslice;
class vtkMatrix4x4;
class vtkRenderer;

namespace delineate::viewers {

class LabelSliceLayer {
 public:
  static constexpr int kTile = 128;

  LabelSliceLayer(std::shared_ptr<const core::LabelMap> map, SliceOrientation orientation);
  ~LabelSliceLayer();
  LabelSliceLayer(const LabelSliceLayer&) = delete;
  LabelSliceLayer& operator=(const LabelSliceLayer&) = delete;

  const core::LabelMap* map() const { return map_.get(); }
  void addTo(vtkRenderer* renderer);
  void removeFrom(vtkRenderer* renderer);
  // Height above the image plane (layers drawn later sit higher).
  void setDepth(double z);

  // A new slice position or grid: reslices and colours the whole slice.
  void setPlane(double s, const SliceGrid& grid);
  // A new colour table (segment colour, visibility, opacity): recolours every pixel.
  void setColors(std::vector<LabelColor> table);
  // Voxels inside `box` changed. Returns true when some pixel of this slice was redrawn.
  bool voxelsChanged(const core::VoxelBox& box);

  // The label value sampled at pixel (x, y) of the grid (0 outside).
  std::uint16_t labelAt(int x, int y) const;
  // Texture bytes marked for upload (tiles Modified x tile bytes) since construction.
  std::size_t uploadedBytes() const { return uploadedBytes_; }
  int visibleTiles() const;

 private:
  struct Tile;
  void buildTiles();
  void resample(const PixelRect& rect);
  void colour(const PixelRect& rect);

  std::shared_ptr<const core::LabelMap> map_;
  SliceOrientation orientation_;
  vtkSmartPointer<vtkImageData> image_;  // zero-copy over map_'s voxels
  vtkNew<vtkImageReslice> reslice_;
  vtkNew<vtkMatrix4x4> axes_;
  vtkRenderer* renderer_ = nullptr;
  double depth_ = 0.5;
  bool hasPlane_ = false;
  double s_ = 0;
  SliceGrid grid_;
  std::vector<std::uint16_t> labels_;  // nu x nv samples of the current slice
  std::vector<LabelColor> table_;
  std::vector<std::unique_ptr<Tile>> tiles_;
  int tilesX_ = 0;
  int tilesY_ = 0;
  std::size_t uploadedBytes_ = 0;
};

}  // namespace delineate::viewers
