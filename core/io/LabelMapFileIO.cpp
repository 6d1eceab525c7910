#include "core/io/LabelMapFileIO.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/io/NiftiWriter.h"
#include "core/io/SegmentTableJson.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string fileStem(const fs::path& image) {
  std::string name = image.filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.size() > 3 && lower.ends_with(".gz")) {
    name.resize(name.size() - 3);
  }
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// The voxels as uint16, adopting the buffer when it already is; throws naming `where` when a
// value is negative, fractional or above 65535.
std::shared_ptr<VoxelBuffer> toLabelVoxels(const Volume& volume, const std::string& where) {
  if (volume.scalarType() == ScalarType::UInt16) {
    return std::const_pointer_cast<VoxelBuffer>(volume.sharedVoxels());
  }
  auto out = std::make_shared<VoxelBuffer>(ScalarType::UInt16, volume.voxels().count());
  std::uint16_t* dst = out->as<std::uint16_t>();
  dispatchScalar(volume.scalarType(), [&](auto t) {
    using T = decltype(t);
    const T* src = volume.data<T>();
    for (std::size_t n = 0; n < volume.voxels().count(); ++n) {
      const auto v = static_cast<double>(src[n]);
      if (!(v >= 0 && v <= 65535 && std::floor(v) == v)) {
        throw Error(ErrorKind::InvalidInput, where,
                    "voxel " + std::to_string(n) + " holds " + std::to_string(v) +
                        ", which is not a label value (0..65535)");
      }
      dst[n] = static_cast<std::uint16_t>(v);
    }
  });
  return out;
}

}  // namespace

fs::path segmentTablePathFor(const fs::path& image) {
  return image.parent_path() / (fileStem(image) + ".json");
}

void writeLabelMapFiles(const LabelMap& labels, const fs::path& image) {
  NullProgress quiet;
  writeLabelMapFiles(labels, image, quiet);
}

void writeLabelMapFiles(const LabelMap& labels, const fs::path& image, ProgressSink& progress) {
  VolumeInfo info;
  info.modality = "OT";
  info.seriesDescription = labels.name();
  // The volume only reads the voxels; it shares the label map's buffer instead of copying it.
  const Volume volume(labels.geometry(),
                      std::const_pointer_cast<VoxelBuffer>(labels.sharedVoxels()), std::move(info));
  const std::string name = image.filename().string();
  if (name.ends_with(".nii") || name.ends_with(".nii.gz")) {
    writeNiftiFile(volume, image, progress);
  } else {
    progress.throwIfCancelled();
    writeVolumeFile(volume, image);
  }
  const fs::path table = segmentTablePathFor(image);
  const fs::path tmp = temporarySiblingPath(table);
  {
    std::ofstream f(tmp, std::ios::binary);
    f << segmentTableToJson(labels.segments(), labels.name()) << "\n";
    if (!f) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw Error(ErrorKind::Io, table.string(), "cannot write the segment table");
    }
  }
  commitAtomically(tmp, table);
}

LabelMap readLabelMapFiles(const fs::path& image, const ImageGeometry* expected) {
  NullProgress quiet;
  return readLabelMapFiles(image, expected, quiet);
}

LabelMap readLabelMapFiles(const fs::path& image, const ImageGeometry* expected,
                           ProgressSink& progress) {
  const VolumePtr volume = readVolumeFile(image, progress);
  const std::string where = image.string();
  if (expected) {
    if (const std::string diff = volume->geometry().differenceFrom(*expected); !diff.empty()) {
      throw Error(
          ErrorKind::InvalidInput, where,
          "the label image's grid differs from the image's: " + diff + " (labels vs image)");
    }
  }
  auto voxels = toLabelVoxels(*volume, where);
  const fs::path table = segmentTablePathFor(image);
  std::vector<Segment> segments;
  std::error_code ec;
  if (fs::exists(table, ec)) {
    segments = readSegmentTable(table);
  }
  // Label values present: runs of one value are the rule, so look up only where the value changes.
  std::vector<std::uint8_t> present(65536, 0);
  const std::uint16_t* p = voxels->as<std::uint16_t>();
  std::uint16_t last = 0;
  present[0] = 1;
  for (std::size_t n = 0; n < voxels->count(); ++n) {
    if (p[n] != last) {
      last = p[n];
      present[last] = 1;
    }
  }
  for (const Segment& s : segments) {
    present[s.label] = false;  // described already
  }
  for (std::uint32_t v = 1; v <= 65535; ++v) {
    if (present[v]) {
      segments.push_back(defaultSegment(static_cast<std::uint16_t>(v)));
    }
  }
  std::stable_sort(segments.begin(), segments.end(),
                   [](const Segment& a, const Segment& b) { return a.label < b.label; });
  return LabelMap(fileStem(image), volume->geometry(), std::move(voxels), std::move(segments));
}

LabelMap resampleNearest(const LabelMap& labels, const ImageGeometry& target) {
  const ImageGeometry& source = labels.geometry();
  // Target index -> continuous source index is affine: origin plus one step per target axis.
  const Vec3 base = source.worldToIndex(target.indexToWorld({0, 0, 0}));
  std::array<Vec3, 3> step{};
  for (int a = 0; a < 3; ++a) {
    Vec3 unit{0, 0, 0};
    unit[a] = 1;
    const Vec3 moved = source.worldToIndex(target.indexToWorld(unit));
    for (int c = 0; c < 3; ++c) {
      step[a][c] = moved[c] - base[c];
    }
  }
  LabelMap out(labels.name(), target, labels.segments());
  std::uint16_t* dst = out.mutableData();
  const std::uint16_t* src = labels.data();
  const auto inside = [](double x, std::size_t n, long& i) {
    i = static_cast<long>(std::floor(x + 0.5));
    return i >= 0 && i < static_cast<long>(n);
  };
  std::size_t n = 0;
  for (std::size_t k = 0; k < target.size[2]; ++k) {
    for (std::size_t j = 0; j < target.size[1]; ++j) {
      Vec3 x{};
      for (int c = 0; c < 3; ++c) {
        x[c] = base[c] + step[2][c] * static_cast<double>(k) + step[1][c] * static_cast<double>(j);
      }
      for (std::size_t i = 0; i < target.size[0]; ++i, ++n) {
        long si = 0, sj = 0, sk = 0;
        const double fi = static_cast<double>(i);
        if (inside(x[0] + step[0][0] * fi, source.size[0], si) &&
            inside(x[1] + step[0][1] * fi, source.size[1], sj) &&
            inside(x[2] + step[0][2] * fi, source.size[2], sk)) {
          dst[n] = src[labels.index(static_cast<std::size_t>(si), static_cast<std::size_t>(sj),
                                    static_cast<std::size_t>(sk))];
        }
      }
    }
  }
  return out;
}

}  // namespace delineate::core
