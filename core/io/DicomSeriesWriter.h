#pragma once
// Writes a Volume as a DICOM series (one file per slice) in any transfer syntax we read.
// Used by the sample generator, conversions and the transfer-syntax tests.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core {

enum class DicomTransferSyntax {
  ImplicitLittleEndian,
  ExplicitLittleEndian,
  ExplicitBigEndian,
  DeflatedExplicitLittleEndian,
  Rle,
  JpegBaseline,  // lossy, 8-bit only
  JpegLossless,  // process 14, selection value 1
  JpegLsLossless,
};

const char* toString(DicomTransferSyntax syntax);

struct DicomWriteOptions {
  DicomTransferSyntax syntax = DicomTransferSyntax::ExplicitLittleEndian;
  // Extra or overriding attributes, keyed by DICOM keyword ("ImageLaterality") or tag
  // ("0020,0062"); values as DICOM strings (multi-values separated by '\').
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string filePrefix = "IM";
  // Bits Stored in each 16-bit word (e.g. 12 for mammography); 0 keeps the full word. Every
  // voxel must fit, else Error(InvalidInput).
  unsigned bitsStored = 0;
  // Several calls writing one series (the time points of a 4-D series): each call's files get
  // SOP Instance UIDs derived from the series UID, `instanceKey` and the slice, and Instance
  // Numbers from `firstInstanceNumber` on.
  std::string instanceKey;
  std::size_t firstInstanceNumber = 1;
};

// Patient, study and series identity come from volume.info(); missing UIDs are generated.
// The SOP class follows info().modality: CT, MR, MG (digital mammography for presentation),
// DX, else Secondary Capture. Returns the written files in slice order.
std::vector<std::filesystem::path> writeDicomSeries(const Volume& volume,
                                                    const std::filesystem::path& folder,
                                                    const DicomWriteOptions& options,
                                                    ProgressSink& progress);

}  // namespace delineate::core
