#pragma once
// One uint16 label image on a volume's grid plus its segment table. Overlapping structures live
// in separate label maps. Voxels are written only through a LabelMapEdit (core/edit), so that
// every change is undoable and announced.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/ImageGeometry.h"
#include "core/model/Segment.h"
#include "core/model/Volume.h"
#include "core/model/VoxelBox.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

class LabelMap {
 public:
  LabelMap(std::string name, ImageGeometry geometry, std::vector<Segment> segments = {});
  // Adopts existing voxels (a loaded label file); throws Error when the type is not UInt16 or the
  // count does not match the geometry.
  LabelMap(std::string name, ImageGeometry geometry, std::shared_ptr<VoxelBuffer> voxels,
           std::vector<Segment> segments);

  const std::string& name() const { return name_; }
  void setName(std::string name) { name_ = std::move(name); }
  const ImageGeometry& geometry() const { return geometry_; }
  std::size_t voxelCount() const { return voxels_->count(); }
  const std::uint16_t* data() const { return voxels_->as<std::uint16_t>(); }
  // Raw write access, for LabelMapEdit and loaders only.
  std::uint16_t* mutableData() { return voxels_->as<std::uint16_t>(); }
  std::shared_ptr<const VoxelBuffer> sharedVoxels() const { return voxels_; }
  // A Volume over the same voxels (no copy), for writers and views; it sees later edits.
  VolumePtr asVolume() const;
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const {
    return i + geometry_.size[0] * (j + geometry_.size[1] * k);
  }
  std::uint16_t at(std::size_t i, std::size_t j, std::size_t k) const {
    return data()[index(i, j, k)];
  }

  const std::vector<Segment>& segments() const { return segments_; }
  std::vector<Segment>& segments() { return segments_; }
  const Segment* segment(std::uint16_t label) const;
  Segment* segment(std::uint16_t label);
  bool isLocked(std::uint16_t label) const;
  // The smallest label value not used by any segment (1..65535); nullopt when all are taken.
  std::optional<std::uint16_t> freeLabel() const;

  // Incremented by every committed voxel change; views compare it to know when to re-upload.
  std::uint64_t version() const { return version_; }
  void bumpVersion() { ++version_; }
  // LabelMapEdits alive on this map (a stroke in progress): its voxels may still roll back.
  int openEdits() const { return openEdits_; }
  void editOpened() { ++openEdits_; }
  void editClosed() { --openEdits_; }

 private:
  std::string name_;
  ImageGeometry geometry_;
  std::shared_ptr<VoxelBuffer> voxels_;
  std::vector<Segment> segments_;
  std::uint64_t version_ = 0;
  int openEdits_ = 0;
};

// The smallest box holding every non-zero voxel (empty when there is none). A full pass over the
// map: call it in a job for large maps.
VoxelBox contentBox(const LabelMap& labels);

}  // namespace delineate::core
