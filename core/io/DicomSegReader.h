#pragma once
// Imports a binary DICOM Segmentation (SEG) into a label map: every frame is placed by its
// ImagePositionPatient onto a target grid (the source series' grid, or the grid the SEG implies
// on its own), segment n of the SEG becoming label value n.
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// What a SEG says about itself, read from its header only (no pixel data).
struct DicomSegSummary {
  std::string seriesDescription;
  std::string studyInstanceUid;
  std::string frameOfReferenceUid;
  std::vector<std::string> referencedSeriesUids;  // Referenced Series Sequence, in file order
  std::size_t segments = 0;
  std::size_t frames = 0;
};

// Throws Error naming the file when it is not a DICOM Segmentation.
DicomSegSummary readDicomSegSummary(const std::filesystem::path& seg);

// The label map on `target`, with one segment per SEG segment (name, description, colour,
// codes, algorithm type). Where segments overlap, the later one (higher segment number) wins
// and a line is appended to `warnings` (when given). Throws Error naming the file and the exact
// difference when a frame does not fit the target: frame size, pixel spacing, orientation, or
// a position off the target's slices. Fractional SEGs are refused (Unsupported).
LabelMap readDicomSeg(const std::filesystem::path& seg, const ImageGeometry& target,
                      ProgressSink& progress, std::vector<std::string>* warnings = nullptr);

// The grid the SEG's frames imply on their own (for a SEG opened without its source series):
// the frame plane, slices along the normal from the first to the last frame position.
ImageGeometry dicomSegGeometry(const std::filesystem::path& seg);

}  // namespace delineate::core
