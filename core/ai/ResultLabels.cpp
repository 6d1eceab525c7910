#include "core/ai/ResultLabels.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/Error.h"
#include "core/ai/NiftiLabelBytes.h"
#include "core/ai/VolumeBytes.h"

namespace delineate::core::ai {

namespace {

std::vector<Segment> segmentsFor(const ResultLabelNames& names) {
  std::vector<Segment> segments;
  for (const ModelLabel& l : names.labels) {
    if (!l.background && l.value > 0 && l.value <= 65535) {
      Segment s = defaultSegment(static_cast<std::uint16_t>(l.value));
      s.name = l.name;
      s.algorithmType = "SEMIAUTOMATIC";
      segments.push_back(s);
    }
  }
  if (segments.empty()) {
    Segment s = defaultSegment(1);
    s.name = names.fallback;
    s.algorithmType = "SEMIAUTOMATIC";
    segments.push_back(s);
  }
  return segments;
}

// Integer voxels: one pass for the range (which vectorises), then a plain widening copy; a
// value outside 0..65535 is refused. Floating point: checked voxel by voxel and rounded.
template <class T>
void convert(const T* in, std::uint16_t* out, std::size_t n, const std::string& server) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (!std::is_same_v<T, std::uint8_t> && !std::is_same_v<T, std::uint16_t>) {
      T lo = 0, hi = 0;
      for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, in[i]);
        hi = std::max(hi, in[i]);
      }
      if (lo < 0 || static_cast<std::int64_t>(hi) > 65535) {
        throw Error(ErrorKind::InvalidInput, server,
                    "the returned label holds a value that is no label (" +
                        std::to_string(lo < 0 ? static_cast<std::int64_t>(lo)
                                              : static_cast<std::int64_t>(hi)) +
                        ")");
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = static_cast<std::uint16_t>(in[i]);
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(in[i]);
      if (!(v >= 0 && v <= 65535)) {
        throw Error(
            ErrorKind::InvalidInput, server,
            "the returned label holds a value that is no label (" + std::to_string(v) + ")");
      }
      out[i] = static_cast<std::uint16_t>(v + 0.5);
    }
  }
}

}  // namespace

std::shared_ptr<LabelMap> resultLabelMap(const Volume& volume, const ImageGeometry& grid,
                                         const std::string& mapName, const ResultLabelNames& names,
                                         const std::string& server) {
  const std::string diff = volume.geometry().differenceFrom(grid);
  if (!diff.empty()) {
    throw Error(ErrorKind::InvalidInput, server,
                "the returned label does not fit the image: " + diff +
                    " (label vs image); nothing was changed");
  }
  auto labels = std::make_shared<LabelMap>(mapName, grid, segmentsFor(names));
  std::uint16_t* out = labels->mutableData();
  const std::size_t n = labels->voxelCount();
  const void* data = volume.voxels().data();
  switch (volume.scalarType()) {
    case ScalarType::UInt8:
      convert(static_cast<const std::uint8_t*>(data), out, n, server);
      break;
    case ScalarType::Int8:
      convert(static_cast<const std::int8_t*>(data), out, n, server);
      break;
    case ScalarType::UInt16:
      convert(static_cast<const std::uint16_t*>(data), out, n, server);
      break;
    case ScalarType::Int16:
      convert(static_cast<const std::int16_t*>(data), out, n, server);
      break;
    case ScalarType::UInt32:
      convert(static_cast<const std::uint32_t*>(data), out, n, server);
      break;
    case ScalarType::Int32:
      convert(static_cast<const std::int32_t*>(data), out, n, server);
      break;
    case ScalarType::Float32:
      convert(static_cast<const float*>(data), out, n, server);
      break;
    case ScalarType::Float64:
      convert(static_cast<const double*>(data), out, n, server);
      break;
    default:
      throw Error(ErrorKind::Unsupported, server,
                  "the returned label has a voxel type we do not read");
  }
  labels->bumpVersion();
  return labels;
}

std::shared_ptr<LabelMap> resultLabelMapFromBytes(
    const std::string& bytes, const std::string& filename, const ImageGeometry& grid,
    const std::string& mapName, const ResultLabelNames& names, const std::string& server,
    ProgressSink& progress) {
  const std::string extension = fullExtension(filename);
  if (extension.empty() || extension == ".nii" || extension == ".nii.gz") {
    if (auto direct =
            labelMapFromNiftiBytes(bytes, grid, mapName, segmentsFor(names), server, progress)) {
      return direct;
    }
  }
  const VolumePtr volume =
      volumeFromBytes(bytes, filename, "the label returned by " + server, progress);
  return resultLabelMap(*volume, grid, mapName, names, server);
}

bool isProbabilityMap(const Volume& volume) {
  if (volume.scalarType() != ScalarType::Float32 && volume.scalarType() != ScalarType::Float64) {
    return false;
  }
  return dispatchScalar(volume.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      const T* v = volume.data<T>();
      bool fractional = false;
      for (std::size_t i = 0; i < volume.voxels().count(); ++i) {
        if (!(v[i] >= 0 && v[i] <= 1)) {
          return false;
        }
        fractional = fractional || (v[i] > 0 && v[i] < 1);
      }
      return fractional;
    } else {
      return false;
    }
  });
}

ResultImage resultImageFromBytes(const std::string& bytes, const std::string& filename,
                                 const ImageGeometry& grid, const std::string& mapName,
                                 const ResultLabelNames& names, const std::string& server,
                                 ProgressSink& progress) {
  const std::string extension = fullExtension(filename);
  if (extension.empty() || extension == ".nii" || extension == ".nii.gz") {
    if (auto direct =
            labelMapFromNiftiBytes(bytes, grid, mapName, segmentsFor(names), server, progress)) {
      return {std::move(direct), nullptr};
    }
  }
  VolumePtr volume = volumeFromBytes(bytes, filename, "the image returned by " + server, progress);
  if (isProbabilityMap(*volume)) {
    return {nullptr, std::move(volume)};
  }
  return {resultLabelMap(*volume, grid, mapName, names, server), nullptr};
}

}  // namespace delineate::core::ai
