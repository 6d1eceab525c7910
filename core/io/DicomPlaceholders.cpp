// Temporary bodies until the DCMTK implementation lands in DicomScanner.cpp,
// DicomSeriesLoader.cpp and DicomSeriesWriter.cpp; delete this file then.
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"

namespace delineate::core {

std::vector<const DicomSeries*> DicomScanResult::allSeries() const {
  std::vector<const DicomSeries*> out;
  for (const auto& p : patients) {
    for (const auto& st : p.studies) {
      for (const auto& se : st.series) {
        out.push_back(&se);
      }
    }
  }
  return out;
}

DicomScanResult scanDicomFolder(const std::filesystem::path& folder, ProgressSink&) {
  throw Error(ErrorKind::Unsupported, folder.string(), "DICOM reading is not built yet");
}
VolumePtr loadDicomSeries(const DicomSeries& series, ProgressSink&) {
  throw Error(ErrorKind::Unsupported, series.seriesInstanceUid, "DICOM reading is not built yet");
}
const char* toString(DicomTransferSyntax) { return "?"; }
std::vector<std::filesystem::path> writeDicomSeries(const Volume&, const std::filesystem::path& f,
                                                    const DicomWriteOptions&, ProgressSink&) {
  throw Error(ErrorKind::Unsupported, f.string(), "DICOM writing is not built yet");
}

}  // namespace delineate::core
