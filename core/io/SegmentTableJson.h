#pragma once
// Segment tables as dcmqi-style JSON ("segmentAttributes"), written beside label map files.
#include <filesystem>
#include <string>
#include <vector>

#include "core/model/Segment.h"

namespace delineate::core {

std::string segmentTableToJson(const std::vector<Segment>& segments,
                               const std::string& seriesDescription = "Segmentation");
// Throws Error(InvalidInput) naming `source` when the text is not a dcmqi segment table.
std::vector<Segment> segmentTableFromJson(const std::string& text, const std::string& source = {});

void writeSegmentTable(const std::vector<Segment>& segments, const std::filesystem::path& path);
std::vector<Segment> readSegmentTable(const std::filesystem::path& path);

}  // namespace delineate::core
