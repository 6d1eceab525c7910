#pragma once
// Display window presets for a loaded DICOM volume after the file's own WindowCenter/Width.
#include <string>
#include <vector>

#include "core/model/VolumeInfo.h"
#include "core/model/VoxelBuffer.h"

namespace delineate::core {

// CT: soft tissue 40/400, lung -600/1500, bone 300/1500, brain 40/80. Other modalities: the
// 1st-99th percentile of the values ("Auto") and the full range. Presets whose name is already
// in `windows` are not added twice.
void appendDefaultWindows(const std::string& modality, const VoxelBuffer& voxels,
                          std::vector<WindowPreset>& windows);

}  // namespace delineate::core
