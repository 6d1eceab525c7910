#pragma once
// Exports a label map as a binary DICOM Segmentation (SEG) object, the recipe dcmqi follows:
// one segment per segment of the label map that has voxels, one frame per segment and slice
// that holds it, each frame placed by Plane Position (Patient) and referencing the source image
// of its slice, in the source series' study and frame of reference.
#include <filesystem>
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::core {

struct DicomSegOptions {
  std::string seriesDescription = "Segmentation";
  int seriesNumber = 300;
  // ContentLabel is a DICOM code string used as a name: upper case letters, digits and '_', at
  // most 16 characters; letters are upper-cased and other characters become '_'.
  std::string contentLabel = "SEGMENTATION";
  std::string contentDescription;
  // Who made the segmentation, a person name in DICOM form ("Family^Given"); empty when unknown
  // (the attribute is then present without a value, which DICOM allows).
  std::string contentCreatorName;
  // SegmentAlgorithmName of segments whose algorithm type is not MANUAL.
  std::string algorithmName = "Delineate";
  std::string softwareVersions = "Delineate";
};

// `source` is the DICOM series the labels were drawn on: its VolumeInfo::sourceFiles (one per
// slice, in slice order) provide the referenced SOP instances, and the first of them the
// patient, study and frame of reference. Voxels whose value has no segment in the table are
// exported as a segment with a default name. Saved atomically (temporary sibling, fsync,
// rename). Throws Error naming `out`: the label grid differs from the source grid (the
// difference is named), the source was not read from DICOM, the label map is empty, or a
// DCMTK call failed.
void writeDicomSeg(const LabelMap& labels, const Volume& source, const std::filesystem::path& out,
                   const DicomSegOptions& options, ProgressSink& progress);

}  // namespace delineate::core
