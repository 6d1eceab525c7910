#pragma once
// The attributes the series writer puts in every file: patient, study, series, frame of
// reference, equipment, image plane, image pixel description and the modality's own module.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/model/Volume.h"

class DcmDataset;

namespace delineate::core {

struct DicomWriteContext {
  const Volume* volume = nullptr;
  std::string where;  // the output folder, for errors
  std::string sopClassUid;
  std::string modality;
  std::string studyInstanceUid;
  std::string seriesInstanceUid;
  std::string frameOfReferenceUid;
  std::string photometric;  // MONOCHROME1 or MONOCHROME2
  unsigned bitsAllocated = 16;
  unsigned bitsStored = 16;
  bool pixelSigned = false;
  double slope = 1;
  double intercept = 0;
  bool lossy = false;
};

// The SOP Class UID for a modality: CT, MR, MG (for presentation), DX (for presentation), else
// Secondary Capture.
std::string sopClassForModality(const std::string& modality);

// A DS value (at most 16 characters) for `v`.
std::string decimalString(double v);

// Everything but the pixel data for slice `slice`; `sopInstanceUid` is that file's UID.
void fillDicomDataset(DcmDataset& ds, const DicomWriteContext& ctx, std::size_t slice,
                      const std::string& sopInstanceUid);

// Sets options.attributes: keywords ("ImageLaterality") or tags ("0020,0062", "(0020,0062)").
// Throws Error(InvalidInput) naming `where` for unknown keywords, sequences, file meta or pixel
// description attributes (those the writer must control).
void applyDicomAttributeOverrides(DcmDataset& ds,
                                  const std::vector<std::pair<std::string, std::string>>& attrs,
                                  const std::string& where);

}  // namespace delineate::core
