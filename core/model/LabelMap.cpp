#include "core/model/LabelMap.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::core {

LabelMap::LabelMap(std::string name, ImageGeometry geometry, std::vector<Segment> segments)
    : name_(std::move(name)),
      geometry_(geometry),
      voxels_(std::make_shared<VoxelBuffer>(ScalarType::UInt16, geometry.voxelCount())),
      segments_(std::move(segments)) {}

LabelMap::LabelMap(std::string name, ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels,
                   std::vector<Segment> segments)
    : name_(std::move(name)),
      geometry_(geometry),
      voxels_(std::move(voxels)),
      segments_(std::move(segments)) {
  if (!voxels_ || voxels_->type() != ScalarType::UInt16) {
    throw Error(ErrorKind::InvalidInput, name_, "a label map needs 16-bit unsigned voxels");
  }
  if (voxels_->count() != geometry_.voxelCount()) {
    throw Error(ErrorKind::InvalidInput, name_, "label voxel count does not match the grid");
  }
}

VolumePtr LabelMap::asVolume() const {
  VolumeInfo info;
  info.modality = "SEG";
  info.seriesDescription = name_;
  return std::make_shared<const Volume>(geometry_, voxels_, std::move(info));
}

const Segment* LabelMap::segment(std::uint16_t label) const {
  const auto it = std::find_if(segments_.begin(), segments_.end(),
                               [label](const Segment& s) { return s.label == label; });
  return it == segments_.end() ? nullptr : &*it;
}

Segment* LabelMap::segment(std::uint16_t label) {
  return const_cast<Segment*>(static_cast<const LabelMap*>(this)->segment(label));
}

bool LabelMap::isLocked(std::uint16_t label) const {
  const Segment* s = segment(label);
  return s && s->locked;
}

std::optional<std::uint16_t> LabelMap::freeLabel() const {
  std::vector<bool> used(65536, false);
  for (const Segment& s : segments_) {
    used[s.label] = true;
  }
  for (std::uint32_t v = 1; v <= 65535; ++v) {
    if (!used[v]) {
      return static_cast<std::uint16_t>(v);
    }
  }
  return std::nullopt;
}

VoxelBox contentBox(const LabelMap& labels) {
  VoxelBox box;
  const Size3& n = labels.geometry().size;
  const std::uint16_t* v = labels.data();
  for (std::size_t k = 0, idx = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j, idx += n[0]) {
      std::size_t first = n[0], last = 0;
      for (std::size_t i = 0; i < n[0]; ++i) {
        if (v[idx + i] != 0) {
          first = std::min(first, i);
          last = i;
        }
      }
      if (first < n[0]) {
        box.include(first, j, k);
        box.include(last, j, k);
      }
    }
  }
  return box;
}

}  // namespace delineate::core
