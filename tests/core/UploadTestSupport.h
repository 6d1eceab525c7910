#pragma once
// Small labelled cases on disk for the upload tests: an image with a bright box, and its label
// (with or without the segment table Delineate writes beside it).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::test {

inline core::VolumePtr boxImage(int seed, core::Size3 size = {12, 10, 8}) {
  core::ImageGeometry g;
  g.size = size;
  g.spacing = {1.0, 1.0, 2.0};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  auto* v = voxels->as<std::int16_t>();
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    v[i] = static_cast<std::int16_t>((i * 7 + static_cast<std::size_t>(seed) * 13) % 50);
  }
  v[0] = static_cast<std::int16_t>(seed);  // each seed its own image (and case id)
  core::VolumeInfo info;
  info.modality = "MR";
  info.patientName = "Doe^Jane";
  info.patientId = "PID-4711";
  return std::make_shared<const core::Volume>(g, voxels, info);
}

// Label value `value` named `name` on a box of the image's grid; `table`: write the segment table.
inline core::LabelMap boxLabel(const core::Volume& image, std::uint16_t value,
                               const std::string& name, std::size_t x0 = 2, std::size_t x1 = 6) {
  core::Segment s = core::defaultSegment(value);
  s.name = name;
  core::LabelMap map("label", image.geometry(), {s});
  const auto& size = image.geometry().size;
  for (std::size_t k = 2; k < 5; ++k) {
    for (std::size_t j = 2; j < 6; ++j) {
      for (std::size_t i = x0; i < x1 && i < size[0]; ++i) {
        map.mutableData()[map.index(i, j, k)] = value;
      }
    }
  }
  return map;
}

inline void writeLabelOnly(const core::LabelMap& map, const std::filesystem::path& file) {
  core::writeVolumeFile(*map.asVolume(), file, true);
}

}  // namespace delineate::test
