#pragma once
// Opens whatever a user points at: a NIfTI/NRRD/MetaImage file, a DICOM file, or a folder.
#include <filesystem>
#include <optional>
#include <vector>

#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

struct OpenedPath {
  VolumePtr volume;                        // the series shown first
  DicomScanResult scan;                    // every DICOM series found (empty for research files)
  std::optional<std::size_t> shownSeries;  // index into scan.allSeries() of `volume`
};

// A research file is read directly; a DICOM file opens its series (from a scan of its folder);
// a folder, or a DICOMDIR (its folder), is scanned and its largest series opened. Throws Error
// naming the path when there is nothing loadable; problems with single files of a folder are
// listed in scan.problems.
OpenedPath openPath(const std::filesystem::path& path, ProgressSink& progress);

// The index of the series with the most frames (ties: the first); nullopt when there is none.
std::optional<std::size_t> largestSeries(const DicomScanResult& scan);

}  // namespace delineate::core
