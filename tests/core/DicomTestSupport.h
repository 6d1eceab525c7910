#pragma once
// Synthetic volumes and small helpers shared by the DICOM tests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/model/Volume.h"

namespace delineate::test {

using core::ImageGeometry;
using core::ScalarType;
using core::VolumeInfo;
using core::VolumePtr;

inline VolumeInfo fixedInfo(const std::string& modality = "CT") {
  VolumeInfo info;
  info.modality = modality;
  info.patientName = "Test^Patient";
  info.patientId = "P001";
  info.patientBirthDate = "19700101";
  info.patientSex = "O";
  info.studyInstanceUid = "1.2.826.0.1.3680043.10.1234.1";
  info.studyDate = "20240102";
  info.studyDescription = "Synthetic study";
  info.accessionNumber = "A1";
  info.seriesInstanceUid = "1.2.826.0.1.3680043.10.1234.1.1";
  info.seriesDescription = "Synthetic series";
  info.seriesNumber = 3;
  info.frameOfReferenceUid = "1.2.826.0.1.3680043.10.1234.1.2";
  return info;
}

// A volume of `type` whose voxel value is value(i, j, k).
inline VolumePtr makeVolume(
    ScalarType type, const ImageGeometry& g, const VolumeInfo& info,
    const std::function<double(std::size_t, std::size_t, std::size_t)>& value) {
  auto voxels = std::make_shared<core::VoxelBuffer>(type, g.voxelCount());
  core::dispatchScalar(type, [&](auto t) {
    using T = decltype(t);
    T* p = voxels->as<T>();
    for (std::size_t k = 0; k < g.size[2]; ++k) {
      for (std::size_t j = 0; j < g.size[1]; ++j) {
        for (std::size_t i = 0; i < g.size[0]; ++i) {
          p[i + g.size[0] * (j + g.size[1] * k)] = static_cast<T>(value(i, j, k));
        }
      }
    }
  });
  return std::make_shared<const core::Volume>(g, voxels, info);
}

inline ImageGeometry axialGeometry(std::size_t nx = 24, std::size_t ny = 20, std::size_t nz = 6) {
  ImageGeometry g;
  g.size = {nx, ny, nz};
  g.spacing = {0.75, 0.8, 2.5};
  g.origin = {-100.25, -80.5, 30};
  return g;
}

// A CT-like Int16 volume with negative values and a pattern that differs per slice.
inline VolumePtr makeCt(const ImageGeometry& g = axialGeometry(),
                        const VolumeInfo& info = fixedInfo("CT")) {
  return makeVolume(ScalarType::Int16, g, info, [](std::size_t i, std::size_t j, std::size_t k) {
    return -1024.0 + static_cast<double>((i * 37 + j * 101 + k * 311) % 4000);
  });
}

inline core::DicomSeries onlySeries(const core::DicomScanResult& scan) {
  const auto all = scan.allSeries();
  EXPECT_EQ(all.size(), 1u);
  if (all.empty()) {
    throw core::Error(core::ErrorKind::Internal, {}, "no series found");
  }
  return *all.front();
}

inline VolumePtr loadFolder(const std::filesystem::path& folder) {
  core::NullProgress progress;
  return core::loadDicomSeries(onlySeries(core::scanDicomFolder(folder, progress)), progress);
}

inline std::vector<std::filesystem::path> writeSeries(
    const core::Volume& v, const std::filesystem::path& folder,
    core::DicomTransferSyntax syntax = core::DicomTransferSyntax::ExplicitLittleEndian,
    std::vector<std::pair<std::string, std::string>> attributes = {}) {
  core::NullProgress progress;
  core::DicomWriteOptions options;
  options.syntax = syntax;
  options.attributes = std::move(attributes);
  return core::writeDicomSeries(v, folder, options, progress);
}

inline void expectSameGeometry(const ImageGeometry& a, const ImageGeometry& b) {
  EXPECT_EQ(a.differenceFrom(b, 1e-4), "");
}

inline void expectSameVoxels(const core::Volume& a, const core::Volume& b) {
  ASSERT_EQ(a.scalarType(), b.scalarType());
  ASSERT_EQ(a.voxels().bytes(), b.voxels().bytes());
  EXPECT_EQ(0, std::memcmp(a.voxels().data(), b.voxels().data(), a.voxels().bytes()));
}

// Runs f, expects an Error whose where() or message names `file`.
template <class F>
core::Error expectErrorNaming(F&& f, const std::string& file) {
  try {
    f();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    return e;
  }
  ADD_FAILURE() << "no Error thrown; expected one naming " << file;
  return core::Error(core::ErrorKind::Internal, {}, "none");
}

}  // namespace delineate::test
