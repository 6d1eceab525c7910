#pragma once
// A server's result volume turned into a proposal label map: checked against the grid it must be
// on (a label of the wrong size or geometry is refused: nothing reaches the user's map), voxel
// values checked to be labels, segments named from the server's label names. Shared by the
// MONAI Label and Clara AIAA clients.
#include <memory>
#include <string>
#include <vector>

#include "core/ai/MonaiInfo.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::core::ai {

struct ResultLabelNames {
  std::vector<ModelLabel> labels;  // value -> name; background entries are skipped
  // The segment of value 1 when `labels` names none (the label the clicks were for, or the
  // model's name).
  std::string fallback;
};

// Throws Error(InvalidInput) naming `server` when `volume` is not on `grid` or holds a value
// that is not a label (negative, fractional beyond rounding, over 65535, NaN), and
// Error(Unsupported) for a voxel type we do not read.
std::shared_ptr<LabelMap> resultLabelMap(const Volume& volume, const ImageGeometry& grid,
                                         const std::string& mapName, const ResultLabelNames& names,
                                         const std::string& server);

// The same from the bytes of the file `filename` a server sent: NIfTI labels exactly on `grid`
// are read straight into the map (labelMapFromNiftiBytes); anything else through a volume
// (volumeFromBytes), with the same checks and messages.
std::shared_ptr<LabelMap> resultLabelMapFromBytes(
    const std::string& bytes, const std::string& filename, const ImageGeometry& grid,
    const std::string& mapName, const ResultLabelNames& names, const std::string& server,
    ProgressSink& progress);

// A probability map: floating-point values, every one finite and in 0..1, some strictly between
// (a label image a server wrote as floats holds whole numbers only).
bool isProbabilityMap(const Volume& volume);

// What a server's answer image is when the request accepts probability maps: labels as above,
// or the probability volume as the server sent it (on the request's grid or a scaled-down copy;
// the caller places it).
struct ResultImage {
  std::shared_ptr<LabelMap> labels;
  VolumePtr probability;
};
ResultImage resultImageFromBytes(const std::string& bytes, const std::string& filename,
                                 const ImageGeometry& grid, const std::string& mapName,
                                 const ResultLabelNames& names, const std::string& server,
                                 ProgressSink& progress);

}  // namespace delineate::core::ai
