// Writes seed inputs for the fuzzers, all made in code: small DICOM files in every transfer
// syntax (single- and multi-frame content), and NIfTI files. Usage: make_fuzz_seeds <folder>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "core/Error.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::core;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <seed folder>\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  try {
    ImageGeometry g;
    g.size = {9, 7, 2};
    g.spacing = {0.8, 0.7, 2.5};
    g.origin = {-3, 4, 5};
    auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
    for (std::size_t n = 0; n < voxels->count(); ++n) {
      voxels->as<std::int16_t>()[n] = static_cast<std::int16_t>(static_cast<int>(n * 37) - 900);
    }
    VolumeInfo info;
    info.modality = "CT";
    info.seriesInstanceUid = "1.2.3.4";
    info.windows = {{"W", 40, 400}};
    const Volume ct(g, voxels, info);
    NullProgress progress;
    for (auto syntax :
         {DicomTransferSyntax::ImplicitLittleEndian, DicomTransferSyntax::ExplicitLittleEndian,
          DicomTransferSyntax::ExplicitBigEndian, DicomTransferSyntax::DeflatedExplicitLittleEndian,
          DicomTransferSyntax::Rle, DicomTransferSyntax::JpegLossless,
          DicomTransferSyntax::JpegLsLossless}) {
      DicomWriteOptions options;
      options.syntax = syntax;
      options.filePrefix = "ts" + std::to_string(static_cast<int>(syntax)) + "_";
      writeDicomSeries(ct, root / "dicom", options, progress);
    }
    auto bytes = std::make_shared<VoxelBuffer>(ScalarType::UInt8, g.voxelCount());
    for (std::size_t n = 0; n < bytes->count(); ++n) {
      bytes->as<std::uint8_t>()[n] = static_cast<std::uint8_t>(n * 3);
    }
    VolumeInfo mg;
    mg.modality = "OT";
    mg.photometric = "MONOCHROME1";
    const Volume eight(g, bytes, mg);
    DicomWriteOptions jpeg;
    jpeg.syntax = DicomTransferSyntax::JpegBaseline;
    jpeg.filePrefix = "jpeg_";
    writeDicomSeries(eight, root / "dicom", jpeg, progress);

    fs::create_directories(root / "nifti");
    writeVolumeFile(ct, root / "nifti" / "ct.nii");
    writeVolumeFile(eight, root / "nifti" / "mg.nii");
    // The harness gzips its input itself; uncompressed seeds serve all three of its paths.
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
