#pragma once
#include <filesystem>

#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core {

// Reads the headers (never the pixel data) of every file under `folder`, recursively, and groups
// them into patients, studies and series. A series whose files differ in orientation or matrix
// size is split into one series per kind. Throws Error only when the folder cannot be read.
DicomScanResult scanDicomFolder(const std::filesystem::path& folder, ProgressSink& progress);

}  // namespace delineate::core
