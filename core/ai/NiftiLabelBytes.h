#pragma once
// The label volume a server answered (the bytes of a .nii or .nii.gz, as MONAI Label and Clara
// AIAA return them) read straight onto the request image's grid as a uint16 label map: gzip
// inflated from memory in small chunks and widened as it comes, no temporary file, no ITK, no
// second copy of the voxels. Every click of an interactive session pays for this, and on a small
// structure the server answers in tens of milliseconds.
//
// It reads only what it can check completely: a NIfTI-1 header in this machine's byte order,
// 3D, integer labels of 8 or 16 bits without scaling, whose every stored transform (qform,
// sform; at least one) and pixdim give exactly `grid`. Anything else returns null and the
// caller takes the general path (ITK), which reads other files and names a difference in
// geometry.
#include <memory>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"

namespace delineate::core::ai {

// Throws Error(InvalidInput) naming `server` for a value that is no label (negative) or bytes
// that end early or are corrupt gzip; null when the file needs the general path.
std::shared_ptr<LabelMap> labelMapFromNiftiBytes(const std::string& bytes,
                                                 const ImageGeometry& grid,
                                                 const std::string& mapName,
                                                 std::vector<Segment> segments,
                                                 const std::string& server, ProgressSink& progress);

}  // namespace delineate::core::ai
