#pragma once
// What a folder scan finds: patients -> studies -> series, each series with its files.
#include <cstddef>
#include <string>
#include <vector>

namespace delineate::core {

struct DicomSeries {
  std::string seriesInstanceUid;
  std::string modality;
  std::string description;
  int seriesNumber = 0;
  std::string sopClassUid;
  std::string transferSyntaxUid;
  std::string frameOfReferenceUid;
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::size_t frames = 0;  // total frames over all files (1 per single-frame file)
  std::vector<std::string> files;
  // Back-references filled by the scanner, handy for display.
  std::string studyInstanceUid;
  std::string patientId;
  // 1-based part number when the scanner split one SeriesInstanceUID into several series because
  // its files differ in orientation or matrix size (the description then carries a suffix); 0
  // when the series was not split.
  int part = 0;
};

struct DicomStudy {
  std::string studyInstanceUid;
  std::string date;
  std::string description;
  std::string accessionNumber;
  std::vector<DicomSeries> series;
};

struct DicomPatient {
  std::string name;
  std::string id;
  std::string birthDate;
  std::string sex;
  std::vector<DicomStudy> studies;
};

struct DicomFileProblem {
  std::string file;
  std::string message;
};

// A DICOM object without pixels found by a scan (a structured report, a key object, a
// presentation state), for readers of particular kinds (the mammography CAD SR reader).
struct DicomObjectFile {
  std::string file;
  std::string sopClassUid;
  std::string studyInstanceUid;
};

struct DicomScanResult {
  std::vector<DicomPatient> patients;
  std::vector<DicomFileProblem> problems;  // files that looked like DICOM but could not be read
  std::size_t filesScanned = 0;
  std::size_t nonDicomFiles = 0;  // skipped silently (README, thumbnails, DICOMDIR, ...)
  // DICOM objects without an image (structured reports, presentation states, key objects,
  // DICOMDIR); skipped silently and also counted in nonDicomFiles.
  std::size_t nonImageDicomFiles = 0;
  std::vector<DicomObjectFile> nonImageObjects;  // those objects, in file order (no DICOMDIR)

  std::vector<const DicomSeries*> allSeries() const;
};

}  // namespace delineate::core
