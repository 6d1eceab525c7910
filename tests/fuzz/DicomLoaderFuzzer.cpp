// libFuzzer harness: arbitrary bytes as a DICOM file, through the folder scan, the series loader
// and the reader of probability maps (fractional SEG, Parametric Map) for mammography heatmaps.
// Any outcome but a core::Error (crash, sanitizer report, other exception) is a finding.
#include <cstddef>
#include <cstdint>

#include "FuzzTempFile.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/mammo/ProbabilityImage.h"

using namespace delineate;

// GDCM and OpenJPEG (the JPEG 2000 fallback) leak on some malformed codestreams; those leaks are
// theirs, not ours, and would stop every run.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopenjp2.so\nleak:libgdcmMSFF.so\nleak:libgdcmDSED.so\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = fuzz::scratchFolder() / "dicom";
  std::filesystem::create_directories(folder);
  const auto path = fuzz::writeInput("dicom/input.dcm", data, size);
  core::NullProgress progress;
  try {
    const core::DicomScanResult scan = core::scanDicomFolder(folder, progress);
    for (const core::DicomSeries* s : scan.allSeries()) {
      try {
        core::loadDicomSeries(*s, progress);
      } catch (const core::Error&) {
      }
    }
  } catch (const core::Error&) {
  }
  // The loader on its own, also for files the scan rejected.
  try {
    core::DicomSeries series;
    series.files.push_back(path.string());
    core::loadDicomSeries(series, progress);
  } catch (const core::Error&) {
  }
  try {
    core::mammo::readProbabilityImage(path, progress);
  } catch (const core::Error&) {
  }
  return 0;
}
