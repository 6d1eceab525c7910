#include "viewers/LabelSliceLayer.h"

#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageProperty.h>
#include <vtkImageReslice.h>
#include <vtkImageSliceMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cstring>

#include "viewers/VtkVolumeImage.h"

namespace delineate::viewers {

struct LabelSliceLayer::Tile {
  PixelRect rect;
  vtkNew<vtkImageData> rgba;
  vtkNew<vtkImageActor> actor;
  bool visible = false;
};

LabelSliceLayer::LabelSliceLayer(std::shared_ptr<const core::LabelMap> map,
                                 SliceOrientation orientation)
    : map_(std::move(map)), orientation_(orientation) {
  image_ = makeVtkLabelImage(*map_);
  reslice_->SetInputData(image_);
  reslice_->SetOutputDimensionality(2);
  reslice_->SetInterpolationModeToNearestNeighbor();
  reslice_->SetResliceAxes(axes_);
  reslice_->AutoCropOutputOff();
  reslice_->SetBackgroundLevel(0);
}

LabelSliceLayer::~LabelSliceLayer() {
  if (renderer_ != nullptr) {
    removeFrom(renderer_);
  }
}

void LabelSliceLayer::addTo(vtkRenderer* renderer) {
  renderer_ = renderer;
  for (auto& t : tiles_) {
    renderer_->AddViewProp(t->actor);
  }
}

void LabelSliceLayer::removeFrom(vtkRenderer* renderer) {
  for (auto& t : tiles_) {
    renderer->RemoveViewProp(t->actor);
  }
  if (renderer == renderer_) {
    renderer_ = nullptr;
  }
}

void LabelSliceLayer::setDepth(double z) {
  depth_ = z;
  for (auto& t : tiles_) {
    t->actor->SetPosition(0, 0, depth_);
  }
}

void LabelSliceLayer::buildTiles() {
  if (renderer_ != nullptr) {
    for (auto& t : tiles_) {
      renderer_->RemoveViewProp(t->actor);
    }
  }
  tiles_.clear();
  tilesX_ = (grid_.nu + kTile - 1) / kTile;
  tilesY_ = (grid_.nv + kTile - 1) / kTile;
  for (int ty = 0; ty < tilesY_; ++ty) {
    for (int tx = 0; tx < tilesX_; ++tx) {
      auto t = std::make_unique<Tile>();
      t->rect = {tx * kTile, ty * kTile, std::min(grid_.nu, (tx + 1) * kTile) - 1,
                 std::min(grid_.nv, (ty + 1) * kTile) - 1};
      t->rgba->SetExtent(t->rect.x0, t->rect.x1, t->rect.y0, t->rect.y1, 0, 0);
      t->rgba->SetOrigin(grid_.u0, grid_.v0, 0);
      t->rgba->SetSpacing(grid_.du, grid_.dv, 1);
      t->rgba->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
      t->actor->GetMapper()->SetInputData(t->rgba);
      if (auto* mapper = vtkImageSliceMapper::SafeDownCast(t->actor->GetMapper())) {
        mapper->BorderOn();  // tiles abut exactly: each covers its pixels whole
      }
      vtkImageProperty* p = t->actor->GetProperty();
      p->SetInterpolationTypeToNearest();
      p->SetColorWindow(255);  // RGBA straight through
      p->SetColorLevel(127.5);
      t->actor->SetPosition(0, 0, depth_);
      t->actor->PickableOff();
      t->actor->VisibilityOff();
      if (renderer_ != nullptr) {
        renderer_->AddViewProp(t->actor);
      }
      tiles_.push_back(std::move(t));
    }
  }
}

void LabelSliceLayer::setPlane(double s, const SliceGrid& grid) {
  const bool newGrid = !(grid == grid_) || tiles_.empty();
  grid_ = grid;
  s_ = s;
  hasPlane_ = true;
  axes_->DeepCopy(resliceAxes(map_->geometry(), orientation_, s).data());
  reslice_->SetOutputSpacing(grid_.du, grid_.dv, 1);
  reslice_->SetOutputOrigin(grid_.u0, grid_.v0, 0);
  reslice_->Modified();
  if (newGrid) {
    labels_.assign(std::size_t(grid_.nu) * std::size_t(grid_.nv), 0);
    buildTiles();
  }
  const PixelRect all{0, 0, grid_.nu - 1, grid_.nv - 1};
  resample(all);
  colour(all);
}

void LabelSliceLayer::setColors(std::vector<LabelColor> table) {
  table_ = std::move(table);
  if (hasPlane_) {
    colour({0, 0, grid_.nu - 1, grid_.nv - 1});
  }
}

bool LabelSliceLayer::voxelsChanged(const core::VoxelBox& box) {
  if (!hasPlane_) {
    return false;
  }
  const auto rect = projectBox(map_->geometry(), orientation_, s_, grid_, box, 1);
  if (!rect) {
    return false;  // the edit does not reach this slice
  }
  image_->Modified();  // the voxels changed under VTK's feet
  resample(*rect);
  colour(*rect);
  return true;
}

void LabelSliceLayer::resample(const PixelRect& r) {
  reslice_->SetOutputExtent(r.x0, r.x1, r.y0, r.y1, 0, 0);
  reslice_->Update();
  vtkImageData* out = reslice_->GetOutput();
  const auto* src = static_cast<const std::uint16_t*>(out->GetScalarPointer(r.x0, r.y0, 0));
  if (src == nullptr) {
    return;
  }
  const int width = r.x1 - r.x0 + 1;
  for (int y = r.y0; y <= r.y1; ++y) {
    std::memcpy(&labels_[std::size_t(y) * grid_.nu + r.x0], src + std::size_t(y - r.y0) * width,
                std::size_t(width) * sizeof(std::uint16_t));
  }
}

std::uint16_t LabelSliceLayer::labelAt(int x, int y) const {
  if (x < 0 || y < 0 || x >= grid_.nu || y >= grid_.nv || labels_.empty()) {
    return 0;
  }
  return labels_[std::size_t(y) * grid_.nu + x];
}

void LabelSliceLayer::colour(const PixelRect& r) {
  const LabelColor unknown{{160, 160, 160, 128}, {160, 160, 160, 255}};
  for (auto& t : tiles_) {
    const PixelRect& tr = t->rect;
    const PixelRect c{std::max(r.x0, tr.x0), std::max(r.y0, tr.y0), std::min(r.x1, tr.x1),
                      std::min(r.y1, tr.y1)};
    if (c.empty()) {
      continue;
    }
    for (int y = c.y0; y <= c.y1; ++y) {
      auto* px = static_cast<std::uint8_t*>(t->rgba->GetScalarPointer(c.x0, y, 0));
      for (int x = c.x0; x <= c.x1; ++x, px += 4) {
        const std::uint16_t v = labels_[std::size_t(y) * grid_.nu + x];
        if (v == 0) {
          std::memset(px, 0, 4);
          continue;
        }
        // An outline pixel has a 4-neighbour with another value (the slice edge counts as 0).
        const bool edge = labelAt(x - 1, y) != v || labelAt(x + 1, y) != v ||
                          labelAt(x, y - 1) != v || labelAt(x, y + 1) != v;
        const LabelColor& lc = v < table_.size() ? table_[v] : unknown;
        const auto& rgba = edge && lc.outline[3] > 0 ? lc.outline : lc.fill;
        std::memcpy(px, rgba.data(), 4);
      }
    }
    // Whether the tile shows anything at all; empty tiles are not drawn.
    const auto* all = static_cast<const std::uint8_t*>(t->rgba->GetScalarPointer());
    const std::size_t n = std::size_t(tr.x1 - tr.x0 + 1) * std::size_t(tr.y1 - tr.y0 + 1);
    bool any = false;
    for (std::size_t i = 0; i < n && !any; ++i) {
      any = all[4 * i + 3] != 0;
    }
    t->rgba->Modified();
    uploadedBytes_ += any ? n * 4 : 0;  // hidden tiles are never uploaded
    t->visible = any;
    t->actor->SetVisibility(any);
  }
}

int LabelSliceLayer::visibleTiles() const {
  return static_cast<int>(
      std::count_if(tiles_.begin(), tiles_.end(), [](const auto& t) { return t->visible; }));
}

}  // namespace delineate::viewers
