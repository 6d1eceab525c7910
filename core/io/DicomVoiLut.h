#pragma once
// The VOI LUT Sequence and VOI LUT Function of a DX/MG dataset (or of a Frame VOI LUT Sequence
// item), for the header parser. Internal to core/io.
#include <string>
#include <vector>

#include "core/model/VolumeInfo.h"

class DcmItem;

namespace delineate::core {

// The VOI LUT Sequence of `item`. Tables whose LUT Data does not match their LUT Descriptor, or
// with other than 8 to 16 bits per entry, are skipped with a warning naming the file (`path`).
// The first value mapped is signed when `pixelSigned` (or the descriptor is SS).
std::vector<VoiLutTable> readVoiLuts(DcmItem& item, bool pixelSigned, const std::string& path,
                                     std::vector<std::string>& warnings);

// VOI LUT Function: "" (LINEAR), LINEAR_EXACT or SIGMOID; other values are LINEAR with a warning.
std::string readVoiFunction(DcmItem& item, const std::string& path,
                            std::vector<std::string>& warnings);

}  // namespace delineate::core
