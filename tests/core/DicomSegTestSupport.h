#pragma once
// Helpers shared by the DICOM SEG tests.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/model/Volume.h"

namespace delineate::test {

// Writes `image` as a DICOM series into `folder` and loads it back, so that VolumeInfo holds the
// real source files.
inline core::VolumePtr throughDicom(const core::Volume& image,
                                    const std::filesystem::path& folder) {
  core::NullProgress progress;
  core::writeDicomSeries(image, folder, {}, progress);
  const core::DicomScanResult scan = core::scanDicomFolder(folder, progress);
  const auto series = scan.allSeries();
  EXPECT_EQ(series.size(), 1u);
  return core::loadDicomSeries(*series.at(0), progress);
}

}  // namespace delineate::test
