#pragma once
// What we know about where a volume came from: patient, study and series identity, display hints.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace delineate::core {

class FrameSeries;

struct WindowPreset {
  std::string name;
  double center = 0;
  double width = 1;
};

// A VOI LUT of the file's VOI LUT Sequence (DX/MG): the value `firstValue` (after the modality
// rescale) maps to data[0], each next value to the next entry, values outside to the first or last
// entry; entries use `bits` bits (LUT Descriptor).
struct VoiLutTable {
  std::string name;  // LUT Explanation, else "VOI LUT n"
  double firstValue = 0;
  unsigned bits = 16;
  std::vector<std::uint16_t> data;
};

struct VolumeInfo {
  std::string modality;  // DICOM modality: CT, MR, MG, DX, ... or "OT" for research files
  std::string patientName;
  std::string patientId;
  std::string patientBirthDate;
  std::string patientSex;
  std::string studyInstanceUid;
  std::string studyDate;
  std::string studyDescription;
  std::string accessionNumber;
  std::string seriesInstanceUid;
  std::string seriesDescription;
  int seriesNumber = 0;
  std::string frameOfReferenceUid;
  std::string sopClassUid;
  // Burned In Annotation (0028,0301) of the files read: YES when any file says YES, NO when all
  // say NO, empty when some file does not say (or the image was not read from DICOM). Decides,
  // with the modality and SOP class, whether the pixels may be sent (core/deid/HoldBackPolicy.h).
  std::string burnedInAnnotation;
  std::string transferSyntax;            // human-readable name of the (first) transfer syntax read
  std::string photometric;               // MONOCHROME1 / MONOCHROME2 where known
  std::string laterality;                // L / R for mammography, empty otherwise
  std::string viewPosition;              // CC / MLO / ... for mammography
  std::string sourcePath;                // the file or folder it was read from
  std::vector<std::string> sourceFiles;  // per slice, in slice order (DICOM)
  std::vector<WindowPreset> windows;     // from the file first, then modality defaults
  std::string voiFunction;               // VOI LUT Function: LINEAR (empty), LINEAR_EXACT, SIGMOID
  std::vector<VoiLutTable> voiLuts;      // VOI LUT Sequence tables (DX/MG), in file order
  std::string presentationIntent;        // FOR PRESENTATION / FOR PROCESSING (DX/MG)
  std::string viewCode;               // View Code Sequence code value when View Position is empty
  std::string spacingSource;          // how the in-plane spacing was found (DX/MG), for rulers
  std::vector<std::string> warnings;  // geometry or decoding caveats a reader should see
  // False when the file does not say how the patient lies (DICOM without Image Orientation:
  // ultrasound, secondary captures): views then show no L/R/A/P/S/I letters.
  bool orientationKnown = true;
  // A frame of a 4-D image: the series it belongs to and which frame it is; null for 3-D images.
  std::shared_ptr<const FrameSeries> frames;
  std::size_t frameIndex = 0;
};

}  // namespace delineate::core
