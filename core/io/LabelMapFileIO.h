#pragma once
// Label maps as research files: the label image (NIfTI / NRRD / MetaImage, uint16) and the
// segment table beside it as dcmqi segment JSON (same stem, ".json"), the pair 3D Slicer, MITK
// and dcmqi exchange. Also nearest-neighbour resampling, for label files drawn on another grid.
#include <filesystem>

#include "core/jobs/ProgressSink.h"
#include "core/model/ImageGeometry.h"
#include "core/model/LabelMap.h"

namespace delineate::core {

// The segment table path for a label image: "a/liver.nii.gz" -> "a/liver.json".
std::filesystem::path segmentTablePathFor(const std::filesystem::path& image);

// Writes the label image (format from the extension, atomically) and its segment table.
// Throws Error naming the file that could not be written.
void writeLabelMapFiles(const LabelMap& labels, const std::filesystem::path& image);
// The same with progress and Cancel (NIfTI is written in slabs; CancelledError leaves the
// previous files as they were).
void writeLabelMapFiles(const LabelMap& labels, const std::filesystem::path& image,
                        ProgressSink& progress);

// Reads a label image and, when present, its segment table. Integer label images of any type
// are accepted when their values fit 0..65535; values present without a table entry get a
// segment with a default name and colour. When `expected` is given and the label grid differs
// from it, throws Error(InvalidInput) naming the file and the exact difference (labels vs
// expected) — the caller may then offer resampleNearest().
LabelMap readLabelMapFiles(const std::filesystem::path& image,
                           const ImageGeometry* expected = nullptr);
LabelMap readLabelMapFiles(const std::filesystem::path& image, const ImageGeometry* expected,
                           ProgressSink& progress);

// The label map on `target`: each target voxel takes the label of the source voxel nearest to
// its centre in world coordinates, 0 outside the source. Segments are kept.
LabelMap resampleNearest(const LabelMap& labels, const ImageGeometry& target);

}  // namespace delineate::core
